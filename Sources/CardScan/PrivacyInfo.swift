import Foundation
import Lockdown

/// The privacy manifest shipped with the CardScan library (a resource of its bundle).
public enum CardScanPrivacy {
    /// Where PrivacyInfo.xcprivacy is in the CardScan resource bundle.
    public static var manifestURL: URL? { Bundle.module.url(forResource: "PrivacyInfo", withExtension: "xcprivacy") }
}

/// The no-network lockdown (the `Lockdown` module), for apps that embed CardScan.
public typealias NetworkLockdown = Lockdown.NetworkLockdown
