import HCI
import Testing
@testable import PacketSources

@Suite("Scan and advertise procedures")
struct ScanProcedureTests {
    @Test("a controller listing the extended commands scans with them, duplicates unfiltered")
    func extendedScanning() async throws {
        let controller = ScriptedController(extendedCommands: true)
        let mode = try await ScanProcedure.start(on: controller, options: ScanOptions(type: .active))
        #expect(mode == .extended)
        #expect(controller.opcodes == [
            HCIOpcode.reset, HCIOpcode.setEventMask, HCIOpcode.readLocalSupportedFeatures, HCIOpcode.readLocalSupportedCommands,
            HCIOpcode.leReadLocalSupportedFeatures, HCIOpcode.leSetEventMask,
            HCIOpcode.leSetExtendedScanParameters, HCIOpcode.leSetExtendedScanEnable,
        ])
        let sent = controller.sent.withLock { $0 }
        #expect(sent[6] == .leSetExtendedScanParameters(type: .active, timing: .continuous))
        #expect(sent[7] == .leSetExtendedScanEnable(true, filterDuplicates: false))
        try await ScanProcedure.stop(on: controller, mode: mode)
        #expect(controller.sent.withLock { $0.last } == .leSetExtendedScanEnable(false, filterDuplicates: false))
    }

    @Test("the LE Extended Advertising feature alone also selects extended scanning (Bumble)")
    func featureBit() async throws {
        let controller = ScriptedController(extendedFeature: true)
        #expect(try await ScanProcedure.start(on: controller, options: ScanOptions()) == .extended)
    }

    @Test("an older controller scans with the legacy commands; raw channel skips reset and masks")
    func legacyScanning() async throws {
        let controller = ScriptedController()
        let timing = LEScanTiming(interval: 0x40, window: 0x20)
        let mode = try await ScanProcedure.start(on: controller, options: ScanOptions(type: .passive, timing: timing, resetFirst: false))
        #expect(mode == .legacy)
        #expect(controller.sent.withLock { $0 } == [
            .readLocalSupportedFeatures, .readLocalSupportedCommands, .leReadLocalSupportedFeatures,
            .leSetScanParameters(type: .passive, timing: timing), .leSetScanEnable(true, filterDuplicates: false),
        ])
        try await ScanProcedure.stop(on: controller, mode: mode)
        #expect(controller.sent.withLock { $0.last } == .leSetScanEnable(false, filterDuplicates: false))
    }

    @Test("a refused command stops the procedure and says why in words")
    func refusal() async throws {
        let controller = ScriptedController(failures: [HCIOpcode.leSetScanEnable: .commandDisallowed])
        do {
            _ = try await ScanProcedure.start(on: controller, options: ScanOptions())
            Issue.record("scanning started despite Command Disallowed")
        } catch let failure as CommandFailure {
            #expect(failure.description == "LE Set Scan Enable failed: Command Disallowed (0x0C): the controller is already scanning (bluetoothd or another program); stop it, or on a kernel adapter listen alongside with its monitor channel (hciN:monitor)")
        }
        let unknown = ScriptedController(failures: [HCIOpcode.leSetScanParameters: .unknownCommand])
        await #expect(throws: CommandFailure(opcode: HCIOpcode.leSetScanParameters, status: .unknownCommand)) {
            _ = try await ScanProcedure.start(on: unknown, options: ScanOptions())
        }
        #expect(unknown.opcodes.last == HCIOpcode.leSetScanParameters, "nothing is sent after a failure")
    }

    @Test("a controller without LE is refused in words before any scan command")
    func noLowEnergy() async throws {
        let controller = ScriptedController(lowEnergy: false)
        await #expect(throws: UnsupportedControllerError.noLowEnergy) {
            _ = try await ScanProcedure.start(on: controller, options: ScanOptions(resetFirst: false))
        }
        #expect(controller.opcodes == [HCIOpcode.readLocalSupportedFeatures])
        #expect(UnsupportedControllerError.noLowEnergy.description.contains("does not support Bluetooth Low Energy"))
    }

    @Test("advertising uses an extended set with a legacy non-connectable PDU where supported")
    func extendedAdvertising() async throws {
        let controller = ScriptedController(extendedCommands: true)
        let interval = try LEAdvertisingInterval(milliseconds: 100)
        let data: [UInt8] = [0x02, 0x01, 0x06]
        let mode = try await AdvertisingProcedure.start(on: controller, data: data, interval: interval)
        #expect(mode == .extended)
        #expect(Array(controller.sent.withLock { $0 }.suffix(3)) == [
            .leSetExtendedAdvertisingParameters(handle: 0, properties: 0x0010, interval: interval),
            .leSetExtendedAdvertisingData(handle: 0, data: data),
            .leSetExtendedAdvertisingEnable(true, handles: [0]),
        ])
        try await AdvertisingProcedure.stop(on: controller, mode: mode)
        #expect(Array(controller.sent.withLock { $0 }.suffix(2)) == [.leSetExtendedAdvertisingEnable(false, handles: [0]), .leRemoveAdvertisingSet(handle: 0)])
    }

    @Test("a refused enable or data removes the advertising set the parameters made", arguments: [
        HCIOpcode.leSetExtendedAdvertisingEnable, HCIOpcode.leSetExtendedAdvertisingData,
    ])
    func refusedStartRemovesTheSet(refused: UInt16) async throws {
        let controller = ScriptedController(extendedCommands: true, failures: [refused: .commandDisallowed])
        let interval = try LEAdvertisingInterval(milliseconds: 100)
        await #expect(throws: CommandFailure(opcode: refused, status: .commandDisallowed)) {
            _ = try await AdvertisingProcedure.start(on: controller, data: [0x02, 0x01, 0x06], interval: interval)
        }
        let sent = controller.opcodes
        // Answered with an error, the enable took no effect: the set is removed, with no disable first.
        #expect(Array(sent.suffix(2)) == [refused, HCIOpcode.leRemoveAdvertisingSet])
        #expect(sent.contains(HCIOpcode.leSetExtendedAdvertisingEnable) == (refused == HCIOpcode.leSetExtendedAdvertisingEnable))
    }

    /// The extended set's unanswered enable was undone; the legacy one's was not, and `advertise`
    /// exits on a failed start without a disable: a controller that took the enable went on
    /// advertising. (Legacy-only controllers are not Bumble's, hence the scripted one.)
    @Test("a legacy advertising enable that gets no answer is followed by a disable")
    func unansweredLegacyEnableIsDisabled() async throws {
        let controller = ScriptedController(unanswered: [HCIOpcode.leSetAdvertisingEnable])
        let interval = try LEAdvertisingInterval(milliseconds: 200)
        await #expect(throws: TransportError.self) {
            _ = try await AdvertisingProcedure.start(on: controller, data: [1, 2], interval: interval, resetFirst: false)
        }
        #expect(controller.sent.withLock { $0 }.suffix(2) == [.leSetAdvertisingEnable(true), .leSetAdvertisingEnable(false)])
    }

    @Test("legacy advertising sends ADV_NONCONN_IND parameters, data, enable; and disables on stop")
    func legacyAdvertising() async throws {
        let controller = ScriptedController()
        let interval = try LEAdvertisingInterval(milliseconds: 200)
        let mode = try await AdvertisingProcedure.start(on: controller, data: [1, 2], interval: interval, resetFirst: false)
        #expect(mode == .legacy)
        #expect(controller.sent.withLock { $0 }.suffix(3) == [
            .leSetAdvertisingParameters(interval: interval), .leSetAdvertisingData([1, 2]), .leSetAdvertisingEnable(true),
        ])
        try await AdvertisingProcedure.stop(on: controller, mode: mode)
        #expect(controller.sent.withLock { $0.last } == .leSetAdvertisingEnable(false))
    }
}
