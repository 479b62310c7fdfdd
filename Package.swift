// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "RouteKit",
    products: [
        .library(name: "RouteKit", targets: ["RouteKit"]),
        .executable(name: "routekit", targets: ["routekit"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]),
        // Headers only: RouteKit loads PROJ when it first needs it (see Geodesy/PROJLibrary.swift).
        .systemLibrary(
            name: "CPROJ",
            providers: [.apt(["libproj-dev"])]),
        // Headers only: RouteKit loads GEOS when it first simplifies a line (see Spatial/LineSimplifier.swift).
        .systemLibrary(
            name: "CGEOS",
            providers: [.apt(["libgeos-dev"])]),
        // Headers only: RouteKit loads libarchive when it first opens an archive (see IO/Archive.swift).
        .systemLibrary(
            name: "CArchive",
            providers: [.apt(["libarchive-dev"])]),
        // Headers only: RouteKit loads GDAL when it first needs it (see Terrain/GDALLibrary.swift), so the
        // target names no library to link (pkg-config would add -lgdal).
        .systemLibrary(
            name: "CGDAL",
            providers: [.apt(["libgdal-dev"])]),
        // Headers only: RouteKit loads libpq when it first connects (see Database/PostgresLibrary.swift).
        .systemLibrary(
            name: "CPostgres",
            providers: [.apt(["libpq-dev"])]),
        .target(
            name: "RouteKit",
            dependencies: ["CLibXML2", "CPROJ", "CGEOS", "CArchive", "CGDAL", "CPostgres"],
            swiftSettings: [
                // The streaming readers and writers keep their state in classes; Swift's run-time check of
                // exclusive access to class properties costs a fifth of a conversion's instructions. Debug
                // builds (and so the tests) keep the check.
                .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
            ]),
        .target(
            name: "RouteKitCLI",
            dependencies: ["RouteKit"]),
        .executableTarget(
            name: "routekit",
            dependencies: ["RouteKitCLI"],
            linkerSettings: [
                // The Swift runtime linked in: a run starts in about half the time, with no symbols of a dozen
                // shared libraries to bind (short commands and a search of a few positions feel it).
                .unsafeFlags(["-static-stdlib"], .when(configuration: .release))
            ]),
        .testTarget(
            name: "RouteKitTests",
            dependencies: ["RouteKit"],
            exclude: ["Fixtures", "API"]),
        .testTarget(
            name: "RouteKitCLITests",
            dependencies: ["RouteKitCLI", "RouteKit"],
            exclude: ["Golden", "Fuzz/Findings"]),
    ]
)
