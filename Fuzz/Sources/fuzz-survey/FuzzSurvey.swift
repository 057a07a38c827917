import Foundation
import Survey

/// Survey files (`survey --report DIR` and `survey --resume` read DIR/survey.ndjson): the input is
/// the file's bytes, read by `SurveyLog.decode` (what `SurveyLog.load` runs on the file it read),
/// then everything `--report` writes (the overview map, one map per beacon, the sample CSV) and the
/// file saved again as `--resume` appends to it, which must read back as the same survey.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSurvey(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    let session: SurveySession
    do {
        session = try SurveyLog.decode(bytes)
    } catch {
        _ = error.description
        return 0
    }
    for file in SurveyReport.files(session) { _ = file.contents.utf8.count }
    let saved = SurveyLog.encode(session)
    guard let again = try? SurveyLog.decode(Data(saved.utf8)) else { fatalError("a survey saved again does not read back:\n\(saved)") }
    precondition(again == session, "a survey saved again reads back different:\n\(saved)")
    return 0
}
