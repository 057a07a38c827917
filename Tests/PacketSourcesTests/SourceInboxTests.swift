import Foundation
import Glibc
import HCI
import Synchronization
import Testing
@testable import PacketSources

/// The one hand-over point between a source's thread and its consumer.
@Suite("Source inbox")
struct SourceInboxTests {
    static func packets(_ count: Int, from start: Int = 0) -> [SourceEvent] {
        (start..<(start + count)).map { .packet(eventPacket(at: Double($0), UInt8($0 % 256))) }
    }

    static func isReadable(_ inbox: SourceInbox) -> Bool {
        var descriptor = pollfd(fd: inbox.wakeDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 1
    }

    @Test("a radio's packets beyond the room are dropped and counted; notices always go through")
    func dropsWhenFull() {
        let inbox = SourceInbox(capacity: 5, wakeThreshold: 5)
        inbox.deliver(Self.packets(3), .dropWhenFull)
        inbox.deliver(Self.packets(4, from: 3) + [.notice(.lost(source: "hci0", reason: "gone"))], .dropWhenFull)
        let contents = inbox.take()
        let delivered = contents.batches.flatMap(\.events)
        #expect(delivered == Self.packets(5) + [.notice(.lost(source: "hci0", reason: "gone"))])
        #expect(contents.droppedPackets == 2)
        #expect(!contents.ended)
        // Room again after a take.
        inbox.deliver(Self.packets(2, from: 10), .dropWhenFull)
        #expect(inbox.take().batches.flatMap(\.events) == Self.packets(2, from: 10))
        #expect(inbox.droppedPackets == 2)
    }

    @Test("the consumer is woken once enough events wait, or when the source ends")
    func wakesAtTheThreshold() {
        let inbox = SourceInbox(capacity: 100, wakeThreshold: 10)
        inbox.deliver(Self.packets(9), .dropWhenFull)
        #expect(!Self.isReadable(inbox), "nine events are not worth a wake-up")
        inbox.deliver(Self.packets(1, from: 9), .dropWhenFull)
        #expect(Self.isReadable(inbox))
        #expect(inbox.take().batches.flatMap(\.events).count == 10)
        #expect(!Self.isReadable(inbox), "take() empties the pipe")
        inbox.finish()
        #expect(Self.isReadable(inbox))
        #expect(inbox.take().ended)
    }

    /// Batches are stamped with the wall time they arrived (the monitor's capture clock runs on from it).
    @Test("batches keep their order and arrival times")
    func arrivalTimes() {
        let clock = ManualClock()
        let inbox = SourceInbox(now: clock.now)
        inbox.deliver(Self.packets(1), .dropWhenFull)
        clock.time.withLock { $0 += 0.25 }
        inbox.deliver(Self.packets(1, from: 1), .waitForRoom)
        #expect(inbox.take().batches.map(\.arrival) == [1000, 1000.25])
    }

    @Test("a replay waiting for room goes on when the consumer takes, or leaves")
    func waitsForRoom() async throws {
        let inbox = SourceInbox(capacity: 4, wakeThreshold: 4)
        let delivered = Atomic<Int>(0)
        let producer = Thread {
            for batch in 0..<5 {
                inbox.deliver(Self.packets(3, from: batch * 3), .waitForRoom)
                delivered.add(1, ordering: .relaxed)
            }
        }
        producer.start()
        var received: [SourceEvent] = []
        while received.count < 15 {
            received += inbox.take().batches.flatMap(\.events)
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(received == Self.packets(15))
        #expect(inbox.droppedPackets == 0)
        // A consumer that leaves releases a producer blocked on a full inbox.
        let blocked = Thread {
            inbox.deliver(Self.packets(4), .waitForRoom)
            inbox.deliver(Self.packets(4), .waitForRoom)
            delivered.add(1, ordering: .relaxed)
        }
        blocked.start()
        try await Task.sleep(for: .milliseconds(50))
        #expect(delivered.load(ordering: .relaxed) == 5, "the second batch waits for room")
        inbox.close()
        for _ in 0..<200 where delivered.load(ordering: .relaxed) < 6 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(delivered.load(ordering: .relaxed) == 6)
        #expect(inbox.take().batches.isEmpty, "a closed inbox keeps nothing")
    }
}
