import CGDAL
import Glibc

/// GDAL's functions that RouteKit calls, looked up in the library the first time a raster is opened or an
/// image is written, and GDAL set up then (its drivers registered, its messages and network access off).
///
/// RouteKit does not link GDAL: the library and the sixty others it needs made every run of `routekit` spend
/// about 25 ms of its start-up resolving their symbols, whether it read a DEM or not. The library is opened
/// by the name its development package installs (`libgdal.so`), else by the name of the GDAL release whose
/// headers RouteKit was built with (`libgdal.so.32` for GDAL 3.6: 26 + the minor version, for GDAL 3).
struct GDALLibrary: @unchecked Sendable {
    let allRegister: @convention(c) () -> Void
    let setErrorHandler: @convention(c) (CPLErrorHandler?) -> CPLErrorHandler?
    let quietErrorHandler: CPLErrorHandler
    let setConfigOption: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Void
    let lastErrorMessage: @convention(c) () -> UnsafePointer<CChar>?
    let driverByName: @convention(c) (UnsafePointer<CChar>?) -> GDALDriverH?
    let deregisterDriver: @convention(c) (GDALDriverH?) -> Void
    let destroyDriver: @convention(c) (GDALDriverH?) -> Void
    let openEx:
        @convention(c) (
            UnsafePointer<CChar>?, UInt32, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<UnsafePointer<CChar>?>?,
            UnsafePointer<UnsafePointer<CChar>?>?
        ) -> GDALDatasetH?
    let close: @convention(c) (GDALDatasetH?) -> Void
    let rasterCount: @convention(c) (GDALDatasetH?) -> Int32
    let rasterBand: @convention(c) (GDALDatasetH?, Int32) -> GDALRasterBandH?
    let rasterXSize: @convention(c) (GDALDatasetH?) -> Int32
    let rasterYSize: @convention(c) (GDALDatasetH?) -> Int32
    let geoTransform: @convention(c) (GDALDatasetH?, UnsafeMutablePointer<Double>?) -> CPLErr
    let invertGeoTransform: @convention(c) (UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?) -> Int32
    let noDataValue: @convention(c) (GDALRasterBandH?, UnsafeMutablePointer<Int32>?) -> Double
    let rasterScale: @convention(c) (GDALRasterBandH?, UnsafeMutablePointer<Int32>?) -> Double
    let rasterOffset: @convention(c) (GDALRasterBandH?, UnsafeMutablePointer<Int32>?) -> Double
    let rasterUnitType: @convention(c) (GDALRasterBandH?) -> UnsafePointer<CChar>?
    let rasterIO:
        @convention(c) (
            GDALRasterBandH?, GDALRWFlag, Int32, Int32, Int32, Int32, UnsafeMutableRawPointer?, Int32, Int32,
            GDALDataType, Int32, Int32
        ) -> CPLErr
    let datasetRasterIO:
        @convention(c) (
            GDALDatasetH?, GDALRWFlag, Int32, Int32, Int32, Int32, UnsafeMutableRawPointer?, Int32, Int32,
            GDALDataType, Int32, UnsafeMutablePointer<Int32>?, Int32, Int32, Int32
        ) -> CPLErr
    let create:
        @convention(c) (GDALDriverH?, UnsafePointer<CChar>?, Int32, Int32, Int32, GDALDataType, CSLConstList?) ->
            GDALDatasetH?
    let createCopy:
        @convention(c) (
            GDALDriverH?, UnsafePointer<CChar>?, GDALDatasetH?, Int32, CSLConstList?, GDALProgressFunc?,
            UnsafeMutableRawPointer?
        ) -> GDALDatasetH?
    let memoryFileBuffer:
        @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<vsi_l_offset>?, Int32) -> UnsafeMutablePointer<
            GByte
        >?
    let unlink: @convention(c) (UnsafePointer<CChar>?) -> Int32
    let base64Encode: @convention(c) (Int32, UnsafePointer<GByte>?) -> UnsafeMutablePointer<CChar>?
    let free: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let spatialReference: @convention(c) (GDALDatasetH?) -> OGRSpatialReferenceH?
    let newSpatialReference: @convention(c) (UnsafePointer<CChar>?) -> OGRSpatialReferenceH?
    let cloneSpatialReference: @convention(c) (OGRSpatialReferenceH?) -> OGRSpatialReferenceH?
    let destroySpatialReference: @convention(c) (OGRSpatialReferenceH?) -> Void
    let importFromEPSG: @convention(c) (OGRSpatialReferenceH?, Int32) -> OGRErr
    let setAxisMappingStrategy: @convention(c) (OGRSpatialReferenceH?, OSRAxisMappingStrategy) -> Void
    let isSame: @convention(c) (OGRSpatialReferenceH?, OGRSpatialReferenceH?) -> Int32
    let isGeographic: @convention(c) (OGRSpatialReferenceH?) -> Int32
    let newTransformation:
        @convention(c) (OGRSpatialReferenceH?, OGRSpatialReferenceH?) -> OGRCoordinateTransformationH?
    let destroyTransformation: @convention(c) (OGRCoordinateTransformationH?) -> Void
    let transformationSource: @convention(c) (OGRCoordinateTransformationH?) -> OGRSpatialReferenceH?
    let transformationTarget: @convention(c) (OGRCoordinateTransformationH?) -> OGRSpatialReferenceH?
    let transform:
        @convention(c) (
            OGRCoordinateTransformationH?, Int32, UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?,
            UnsafeMutablePointer<Double>?
        ) -> Int32

    /// GDAL, loaded and set up once; or why it cannot be.
    private static let shared = Result { () throws(SharedLibrary.Unavailable) -> GDALLibrary in try GDALLibrary() }

    /// GDAL, loaded and set up on the first call.
    ///
    /// - Throws: ``ElevationModelError/cannotOpen(path:reason:)`` for `path` when the library cannot be loaded.
    static func loaded(for path: String) throws(ElevationModelError) -> GDALLibrary {
        switch shared {
        case .success(let gdal): return gdal
        case .failure(let failure): throw .cannotOpen(path: path, reason: failure.reason)
        }
    }

    /// GDAL when it is loaded and set up, nil when it cannot be.
    static var available: GDALLibrary? { try? shared.get() }

    private init() throws(SharedLibrary.Unavailable) {
        let library = try SharedLibrary(
            "GDAL", names: ["libgdal.so", "libgdal.so.\(26 + Int(GDAL_VERSION_MINOR))"])
        allRegister = try library.function("GDALAllRegister")
        setErrorHandler = try library.function("CPLSetErrorHandler")
        quietErrorHandler = try library.function("CPLQuietErrorHandler")
        setConfigOption = try library.function("CPLSetConfigOption")
        lastErrorMessage = try library.function("CPLGetLastErrorMsg")
        driverByName = try library.function("GDALGetDriverByName")
        deregisterDriver = try library.function("GDALDeregisterDriver")
        destroyDriver = try library.function("GDALDestroyDriver")
        openEx = try library.function("GDALOpenEx")
        close = try library.function("GDALClose")
        rasterCount = try library.function("GDALGetRasterCount")
        rasterBand = try library.function("GDALGetRasterBand")
        rasterXSize = try library.function("GDALGetRasterXSize")
        rasterYSize = try library.function("GDALGetRasterYSize")
        geoTransform = try library.function("GDALGetGeoTransform")
        invertGeoTransform = try library.function("GDALInvGeoTransform")
        noDataValue = try library.function("GDALGetRasterNoDataValue")
        rasterScale = try library.function("GDALGetRasterScale")
        rasterOffset = try library.function("GDALGetRasterOffset")
        rasterUnitType = try library.function("GDALGetRasterUnitType")
        rasterIO = try library.function("GDALRasterIO")
        datasetRasterIO = try library.function("GDALDatasetRasterIO")
        create = try library.function("GDALCreate")
        createCopy = try library.function("GDALCreateCopy")
        memoryFileBuffer = try library.function("VSIGetMemFileBuffer")
        unlink = try library.function("VSIUnlink")
        base64Encode = try library.function("CPLBase64Encode")
        free = try library.function("VSIFree")
        spatialReference = try library.function("GDALGetSpatialRef")
        newSpatialReference = try library.function("OSRNewSpatialReference")
        cloneSpatialReference = try library.function("OSRClone")
        destroySpatialReference = try library.function("OSRDestroySpatialReference")
        importFromEPSG = try library.function("OSRImportFromEPSG")
        setAxisMappingStrategy = try library.function("OSRSetAxisMappingStrategy")
        isSame = try library.function("OSRIsSame")
        isGeographic = try library.function("OSRIsGeographic")
        newTransformation = try library.function("OCTNewCoordinateTransformation")
        destroyTransformation = try library.function("OCTDestroyCoordinateTransformation")
        transformationSource = try library.function("OCTGetSourceCS")
        transformationTarget = try library.function("OCTGetTargetCS")
        transform = try library.function("OCTTransform")
        prepare()
    }

    /// Silences GDAL's messages to standard error (errors reach the caller as ``ElevationModelError``),
    /// registers its drivers, and turns network access off, so that a VRT cannot make a DEM fetch anything.
    ///
    /// GDAL lists a raster's folder when it opens it, to find its sidecar files, unless told not to: in a
    /// folder of thousands of tiles that is a listing of thousands of names for every tile. `TRUE` skips the
    /// listing but still looks for each sidecar by its name (`.aux.xml` with scale, offset, unit and no-data
    /// value; `.tfw` and other world files; ESRI's `.hdr`, without which a `.bil` or `.flt` is not a raster);
    /// `EMPTY_DIR` would skip the sidecars too.
    private func prepare() {
        _ = setErrorHandler(quietErrorHandler)
        setConfigOption("GDAL_HTTP_TIMEOUT", "1")
        setConfigOption("CPL_VSIL_CURL_ALLOWED_EXTENSIONS", ".not-fetched")
        setConfigOption("GDAL_DISABLE_READDIR_ON_OPEN", "TRUE")
        // Reading a .gz would otherwise leave a .properties file beside it (an index for later seeks).
        setConfigOption("CPL_VSIL_GZIP_WRITE_PROPERTIES", "NO")
        allRegister()
        for name in ["HTTP", "WMS", "WMTS", "WCS", "DAAS", "EEDAI", "PLMosaic", "OGCAPI", "NGW", "STACTA", "STACIT"] {
            guard let driver = driverByName(name) else { continue }
            deregisterDriver(driver)
            destroyDriver(driver)
        }
    }

    /// GDAL's last message on this thread as ``readable(_:or:)`` words it.
    func lastError(or fallback: String) -> String {
        Self.readable(lastErrorMessage().map { String(cString: $0) }, or: fallback)
    }

    /// A message of GDAL's for a user: without the place in GDAL's source some of them start with ("In file
    /// ./port/cpl_vsil_gzip.cpp, at line 1121, "), and with what a failed decompression means; `fallback` when
    /// there is no message, or nothing but the place.
    static func readable(_ message: String?, or fallback: String) -> String {
        let text = message.map(readable) ?? ""
        return text.isEmpty ? fallback : text
    }

    private static func readable(_ message: String) -> String {
        var text = Substring(message)
        if text.hasPrefix("In file "), let line = text.firstRange(of: ", at line ") {
            let rest = text[line.upperBound...].drop { $0.isNumber }
            if rest.hasPrefix(", ") { text = rest.dropFirst(2) }
        }
        if text.hasPrefix("decompression failed") { return "the compressed file is damaged or cut short (\(text))" }
        return String(text)
    }
}
