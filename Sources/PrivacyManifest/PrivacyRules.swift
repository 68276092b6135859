/// Apple's rules for privacy manifests (PrivacyInfo.xcprivacy), in one table.
///
/// Source: Apple Developer Documentation, Bundle Resources > Privacy manifest files:
/// "Describing data use in privacy manifests" (collected data types and purposes) and
/// "Describing use of required reason API" (API categories and their approved reasons).
public enum PrivacyRules {
    /// Keys of the manifest's root dictionary.
    public static let rootKeys: Set<String> = [
        "NSPrivacyTracking", "NSPrivacyTrackingDomains", "NSPrivacyCollectedDataTypes", "NSPrivacyAccessedAPITypes",
    ]

    /// Keys of one collected-data-type entry; all four are required.
    public static let collectedDataKeys: [String] = [
        "NSPrivacyCollectedDataType", "NSPrivacyCollectedDataTypeLinked", "NSPrivacyCollectedDataTypeTracking",
        "NSPrivacyCollectedDataTypePurposes",
    ]

    /// Keys of one accessed-API entry; both are required.
    public static let accessedAPIKeys: [String] = ["NSPrivacyAccessedAPIType", "NSPrivacyAccessedAPITypeReasons"]

    /// The data types an app or SDK may declare it collects.
    public static let dataTypes: Set<String> = [
        // Contact info
        "NSPrivacyCollectedDataTypeName", "NSPrivacyCollectedDataTypeEmailAddress", "NSPrivacyCollectedDataTypePhoneNumber",
        "NSPrivacyCollectedDataTypePhysicalAddress", "NSPrivacyCollectedDataTypeOtherUserContactInfo",
        // Health and fitness
        "NSPrivacyCollectedDataTypeHealth", "NSPrivacyCollectedDataTypeFitness",
        // Financial info
        "NSPrivacyCollectedDataTypePaymentInfo", "NSPrivacyCollectedDataTypeCreditInfo", "NSPrivacyCollectedDataTypeOtherFinancialInfo",
        // Location
        "NSPrivacyCollectedDataTypePreciseLocation", "NSPrivacyCollectedDataTypeCoarseLocation",
        // Sensitive info, contacts
        "NSPrivacyCollectedDataTypeSensitiveInfo", "NSPrivacyCollectedDataTypeContacts",
        // User content
        "NSPrivacyCollectedDataTypeEmailsOrTextMessages", "NSPrivacyCollectedDataTypePhotosorVideos",
        "NSPrivacyCollectedDataTypeAudioData", "NSPrivacyCollectedDataTypeGameplayContent",
        "NSPrivacyCollectedDataTypeCustomerSupport", "NSPrivacyCollectedDataTypeOtherUserContent",
        // Browsing and search history
        "NSPrivacyCollectedDataTypeBrowsingHistory", "NSPrivacyCollectedDataTypeSearchHistory",
        // Identifiers
        "NSPrivacyCollectedDataTypeUserID", "NSPrivacyCollectedDataTypeDeviceID",
        // Purchases
        "NSPrivacyCollectedDataTypePurchaseHistory",
        // Usage data
        "NSPrivacyCollectedDataTypeProductInteraction", "NSPrivacyCollectedDataTypeAdvertisingData",
        "NSPrivacyCollectedDataTypeOtherUsageData",
        // Diagnostics
        "NSPrivacyCollectedDataTypeCrashData", "NSPrivacyCollectedDataTypePerformanceData",
        "NSPrivacyCollectedDataTypeOtherDiagnosticData",
        // Surroundings, body
        "NSPrivacyCollectedDataTypeEnvironmentScanning", "NSPrivacyCollectedDataTypeHands", "NSPrivacyCollectedDataTypeHead",
        // Other
        "NSPrivacyCollectedDataTypeOtherDataTypes",
    ]

    /// The six purposes a collected data type may be used for.
    public static let purposes: Set<String> = [
        "NSPrivacyCollectedDataTypePurposeThirdPartyAdvertising", "NSPrivacyCollectedDataTypePurposeDeveloperAdvertising",
        "NSPrivacyCollectedDataTypePurposeAnalytics", "NSPrivacyCollectedDataTypePurposeProductPersonalization",
        "NSPrivacyCollectedDataTypePurposeAppFunctionality", "NSPrivacyCollectedDataTypePurposeOther",
    ]

    /// Required-reason API categories and the reason codes approved for each.
    public static let reasonsByCategory: [String: Set<String>] = [
        "NSPrivacyAccessedAPICategoryFileTimestamp": ["DDA9.1", "C617.1", "3B52.1", "0A2A.1"],
        "NSPrivacyAccessedAPICategorySystemBootTime": ["35F9.1", "8FFB.1", "3D61.1"],
        "NSPrivacyAccessedAPICategoryDiskSpace": ["85F4.1", "E174.1", "7D9E.1", "B728.1"],
        "NSPrivacyAccessedAPICategoryActiveKeyboards": ["3EC4.1", "54BD.1"],
        "NSPrivacyAccessedAPICategoryUserDefaults": ["CA92.1", "1C8F.1", "C56D.1", "AC6B.1"],
    ]
}
