import Testing

@testable import RouteKit

@Suite struct GDALLibraryTests {
    @Test func gdalsMessagesAreForUsers() {
        func readable(_ message: String?) -> String { GDALLibrary.readable(message, or: "cannot read it") }
        // The place in GDAL's source goes; a failed decompression says what it means.
        #expect(
            readable("In file ./port/cpl_vsil_gzip.cpp, at line 1121, decompression failed with z_err = -5")
                == "the compressed file is damaged or cut short (decompression failed with z_err = -5)")
        #expect(readable("In file ./gcore/gdal.cpp, at line 12, no such band") == "no such band")
        // No message, or nothing but the place: what the caller says failed.
        #expect(readable(nil) == "cannot read it")
        #expect(readable("") == "cannot read it")
        #expect(readable("In file x.cpp, at line 3, ") == "cannot read it")
        // Anything else as it is.
        #expect(readable("In file x.cpp at line 3") == "In file x.cpp at line 3")
        #expect(readable("`N46E013.tif' not recognized") == "`N46E013.tif' not recognized")
    }
}
