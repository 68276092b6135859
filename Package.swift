// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "cardscan",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "CardScan", targets: ["CardScan"]),
        .library(name: "Lockdown", targets: ["Lockdown"]),
        .library(name: "PrivacyManifest", targets: ["PrivacyManifest"]),
        .library(name: "CardScanService", targets: ["CardScanService"]),
        .library(name: "CardScanClient", targets: ["CardScanClient"]),
        .library(name: "ContactBook", targets: ["ContactBook"]),
        .executable(name: "cardscan", targets: ["cardscan"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    ],
    targets: [
        // MARK: C libraries, each behind a tiny system-library target.
        .systemLibrary(
            name: "CJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg-dev"]), .brew(["jpeg-turbo"])]),
        // Not through pkg-config: its flags add -larchive -lcurl, which libtesseract loads for
        // itself; cardscan linking them too loaded NSS and six more libraries for nothing.
        .systemLibrary(name: "CTesseract"),
        .systemLibrary(
            name: "CLeptonica", pkgConfig: "lept",
            providers: [.apt(["libleptonica-dev"]), .brew(["leptonica"])]),
        .systemLibrary(
            name: "CExif", pkgConfig: "libexif",
            providers: [.apt(["libexif-dev"]), .brew(["libexif"])]),

        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .systemLibrary(
            name: "CTIFF", pkgConfig: "libtiff-4",
            providers: [.apt(["libtiff-dev"]), .brew(["libtiff"])]),
        .systemLibrary(
            name: "CZbar", pkgConfig: "zbar",
            providers: [.apt(["libzbar-dev"]), .brew(["zbar"])]),

        // MARK: C shims where C code must run (setjmp error handling, C++ exceptions).
        .target(name: "CJPEGShim", dependencies: ["CJPEG"]),
        // libheif through dlopen, the first time a HEIF file arrives (its codecs cost every run 10 ms to load).
        .target(name: "CHeifShim"),
        // Kernels with AVX2 where the processor has it, chosen at run time (Swift's own code is built for any x86-64):
        // the resize's for ImageIngest, detection's for CardDetection.
        .target(name: "CResizeKernels"),
        .target(name: "CDetectionKernels"),
        .target(name: "CSeccomp"),
        // Work libtesseract does that cardscan's readings do not need, left out (symbol interposition; see its header).
        .target(name: "CTesseractLean", dependencies: ["CLeptonica"]),
        .target(
            name: "CPhoneNumber",
            linkerSettings: [.linkedLibrary("phonenumber"), .linkedLibrary("stdc++")]),

        // MARK: Files: every read, write and folder walk (bounded, checked, names as bytes).
        .target(name: "FileAccess"),

        // MARK: The no-network guarantee, and Apple's privacy manifests (model and linter).
        .target(name: "Lockdown", dependencies: ["CSeccomp"]),
        .target(name: "PrivacyManifest"),

        // MARK: Pipeline stages, in the order data flows.
        .target(name: "ImageIngest", dependencies: ["CJPEGShim", "CResizeKernels", "CLeptonica", "CPNG", "CHeifShim", "CTIFF"]),
        .target(name: "MetadataStripper", dependencies: ["ImageIngest", "CExif"]),
        // Finding the card in the photo, judging it and straightening it for OCR.
        .target(name: "CardDetection", dependencies: ["ImageIngest", "CDetectionKernels"]),
        // Tesseract: its engines, languages and orientation, and the reading itself.
        .target(name: "CardOCR", dependencies: ["ImageIngest", "CardDetection", "CTesseract", "CLeptonica", "CTesseractLean"]),
        .target(name: "ContactParser", dependencies: ["CPhoneNumber", "FileAccess"], exclude: ["Data/README.md", "Data/licenses"]),
        // QR codes (and zbar's other symbologies) on the card, and the contact data they hold.
        // The contact formats, read and written in one place: JSON, CSV (cardscan's, Google's, Outlook's),
        // vCard 3.0/4.0 and MeCard. One vCard reader serves QR payloads and `contacts import`.
        .target(name: "CardFormats", dependencies: ["ContactParser"]),
        .target(name: "CardCodes", dependencies: ["ImageIngest", "ContactParser", "CardFormats", "CZbar"]),
        .target(
            name: "CardScan",
            dependencies: ["FileAccess", "ImageIngest", "MetadataStripper", "CardDetection", "CardOCR", "CardCodes", "CardFormats", "ContactParser", "Lockdown"],
            resources: [.copy("Resources/PrivacyInfo.xcprivacy")]),

        // MARK: The local contact book (SQLite through GRDB).
        .target(name: "ContactBook", dependencies: ["ContactParser", "CardFormats", .product(name: "GRDB", package: "GRDB.swift")]),

        // MARK: `cardscan serve`: the pipeline behind HTTP/1.1 on a Unix socket, and its client.
        .target(
            name: "CardScanService",
            dependencies: [
                "CardScan",
                "CardFormats",
                "FileAccess",
                "Lockdown",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]),
        .target(
            name: "CardScanClient",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        .executableTarget(
            name: "cardscan",
            dependencies: [
                "CardScan",
                "CardFormats",
                "CardScanService",
                "ContactBook",
                "ContactParser",
                "FileAccess",
                "ImageIngest",
                "Lockdown",
                "PrivacyManifest",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),

        .executableTarget(name: "cardscan-bench", dependencies: ["CardScan", "CardScanClient", "ImageIngest", "CardDetection", "CardOCR", "CardCodes", "ContactBook", "ContactParser"]),
        // libFuzzer targets (make fuzz builds them with -sanitize=fuzzer,address -DFUZZING).
        .executableTarget(name: "cardscan-fuzz", dependencies: ["ImageIngest", "MetadataStripper", "ContactParser", "CardCodes", "PrivacyManifest"]),

        // MARK: Tests
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "ImageIngestTests", dependencies: ["ImageIngest", "TestSupport", "CLeptonica", "CHeifShim", "CJPEGShim", "CResizeKernels"],
            linkerSettings: [.linkedLibrary("heif")]),  // libheif's encoder writes the HEIC fixtures
        .testTarget(name: "MetadataStripperTests", dependencies: ["MetadataStripper", "ImageIngest", "TestSupport"]),
        .testTarget(name: "CardDetectionTests", dependencies: ["CardDetection", "ImageIngest", "TestSupport", "CDetectionKernels"]),
        .testTarget(name: "CardOCRTests", dependencies: ["CardOCR", "CardDetection", "ImageIngest", "TestSupport", "CTesseractLean", "CLeptonica"]),
        .testTarget(name: "CardCodesTests", dependencies: ["CardCodes", "ContactParser", "ImageIngest", "TestSupport"]),
        .testTarget(name: "ContactBookTests", dependencies: ["ContactBook", "ContactParser", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "ContactParserTests", dependencies: ["ContactParser", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "FileAccessTests", dependencies: ["FileAccess", "TestSupport"]),
        .testTarget(name: "CardScanTests", dependencies: ["CardScan", "CardOCR", "CardCodes", "CardDetection", "ContactParser", "ImageIngest", "TestSupport"]),
        .testTarget(name: "CardFormatsTests", dependencies: ["CardFormats", "ContactParser", "TestSupport"]),
        .testTarget(name: "CardScanServiceTests", dependencies: ["CardScanService", "CardScanClient", "CardScan", "TestSupport"]),
        .testTarget(name: "PrivacyManifestTests", dependencies: ["PrivacyManifest", "CardScan", "TestSupport"]),
        .testTarget(name: "cardscanTests", dependencies: ["cardscan", "CardScan", "CardFormats", "ContactParser", "FileAccess", "ImageIngest", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
