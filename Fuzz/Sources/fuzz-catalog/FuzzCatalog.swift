import Ranging

/// Exhibit catalogs (YAML, as bytes: not UTF-8 is an error to name, not a crash), then what a
/// catalog feeds: the ranging engine's configuration and the dwell report in all three forms.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCatalog(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let catalog = try? ExhibitCatalog(utf8: Array(UnsafeBufferPointer(start: data, count: size))) else { return 0 }
    var engine = RangingEngine(configuration: RangingConfiguration(), catalog: catalog)
    _ = engine.tick(at: 1_700_000_000)
    let report = DwellReport(totals: [:], catalog: catalog)
    _ = DwellReportRenderer.text(report)
    _ = DwellReportRenderer.csv(report)
    _ = DwellReportRenderer.json(report)
    return 0
}
