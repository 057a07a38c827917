import PacketSources
import Synchronization

/// A source that connects and then sends nothing until stopped: the monitor's idle cost.
final class SilentSource: PacketSource {
    let name = "silent"
    private let sink = Mutex<(any SourceSink)?>(nil)

    func start(into sink: any SourceSink) {
        sink.deliver([.notice(.connected(source: name))], .dropWhenFull)
        self.sink.withLock { $0 = sink }
    }

    func stop() { sink.withLock { $0 }?.finish() }
}
