import Testing

@testable import RouteKit

/// Libraries opened when first needed: the first of the names that opens, and a reason when none does.
@Suite struct SharedLibraryTests {
    @Test func theFirstNameThatOpensIsUsedAndItsFunctionsAreFound() throws {
        let library = try SharedLibrary("the C library", names: ["libroutekit-missing.so.9", "libc.so.6"])
        #expect(library.name == "libc.so.6")
        let length: @convention(c) (UnsafePointer<CChar>?) -> Int = try library.function("strlen")
        #expect(length("seven") == 5)
        #expect(throws: SharedLibrary.Unavailable.self) {
            let _: @convention(c) () -> Void = try library.function("routekit_no_such_function")
        }
    }

    @Test func aLibraryThatNoneOfItsNamesOpensSaysWhy() {
        do {
            _ = try SharedLibrary("GDAL", names: ["libroutekit-missing.so.9"])
            Issue.record("a missing library opened")
        } catch {
            #expect(error.reason.hasPrefix("GDAL cannot be loaded: "))
            #expect(error.reason.contains("libroutekit-missing.so.9"))
        }
    }

    /// GDAL is not linked: it is loaded for the first raster (the DEM tests use it).
    @Test func gdalIsLoadedWhenFirstNeeded() {
        #expect(GDALLibrary.available != nil)
    }
}
