import Testing

@testable import RouteKit

@Suite struct GDALLibraryTests {
    @Test func gdalsMessagesAreForUsers() {
        // The place in GDAL's source goes; a failed decompression says what it means.
        #expect(
            GDALLibrary.readable("In file ./port/cpl_vsil_gzip.cpp, at line 1121, decompression failed with z_err = -5")
                == "the compressed file is damaged or cut short (decompression failed with z_err = -5)")
        #expect(GDALLibrary.readable("In file ./gcore/gdal.cpp, at line 12, no such band") == "no such band")
        // Nothing but the place: nothing left, and the caller says what failed instead.
        #expect(GDALLibrary.readable("In file x.cpp, at line 3, ") == "")
        // Anything else as it is.
        #expect(GDALLibrary.readable("In file x.cpp at line 3") == "In file x.cpp at line 3")
        #expect(GDALLibrary.readable("`N46E013.tif' not recognized") == "`N46E013.tif' not recognized")
    }
}
