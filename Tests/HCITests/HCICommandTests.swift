import Testing
@testable import HCI

/// Byte layouts written out from the Core 5.4 Vol 4 Part E command sections, field by field.
@Suite("HCI command encoders")
struct HCICommandTests {
    @Test("Reset and the read commands are bare opcodes, little-endian")
    func bareCommands() {
        #expect(HCICommand.reset.payload == [0x03, 0x0C, 0x00])
        #expect(HCICommand.readLocalSupportedCommands.payload == [0x02, 0x10, 0x00])
        #expect(HCICommand.readLocalSupportedFeatures.payload == [0x03, 0x10, 0x00])
        #expect(HCICommand.leReadLocalSupportedFeatures.payload == [0x03, 0x20, 0x00])
        #expect(HCICommand(ogf: 0x08, ocf: 0x000C).opcode == HCIOpcode.leSetScanEnable)
    }

    @Test("event masks are eight little-endian octets")
    func eventMasks() {
        #expect(HCICommand.setEventMask(HCICommand.eventMaskWithLEMeta).payload ==
            [0x01, 0x0C, 0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x1F, 0x00, 0x20])
        #expect(HCICommand.leSetEventMask(0x7_FFFF).payload == [0x01, 0x20, 0x08, 0xFF, 0xFF, 0x07, 0, 0, 0, 0, 0])
    }

    @Test("legacy scan parameters and enable (7.8.10, 7.8.11)")
    func legacyScan() throws {
        let timing = try LEScanTiming(intervalMilliseconds: 100, windowMilliseconds: 50)
        #expect(timing == LEScanTiming(interval: 160, window: 80))
        #expect(HCICommand.leSetScanParameters(type: .active, timing: timing).payload ==
            [0x0B, 0x20, 0x07, 0x01, 0xA0, 0x00, 0x50, 0x00, 0x00, 0x00])
        #expect(HCICommand.leSetScanEnable(true, filterDuplicates: false).payload == [0x0C, 0x20, 0x02, 0x01, 0x00])
    }

    @Test("scan timing outside the spec's range names the option")
    func badTiming() {
        #expect(throws: DecodeError(field: "scan window", offset: 0, reason: "200.0 ms is longer than the interval 100.0 ms")) {
            try LEScanTiming(intervalMilliseconds: 100, windowMilliseconds: 200)
        }
        #expect(throws: DecodeError.self) { try LEScanTiming(intervalMilliseconds: 1, windowMilliseconds: 1) }
    }

    @Test("extended scan parameters and enable (7.8.64, 7.8.65)")
    func extendedScan() {
        let cmd = HCICommand.leSetExtendedScanParameters(type: .passive, timing: .continuous)
        #expect(cmd.payload == [0x41, 0x20, 0x08, 0x00, 0x00, 0x01, 0x00, 0xA0, 0x00, 0xA0, 0x00])
        #expect(HCICommand.leSetExtendedScanEnable(false, filterDuplicates: false).payload ==
            [0x42, 0x20, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
    }

    @Test("legacy advertising commands (7.8.5, 7.8.7, 7.8.9)")
    func legacyAdvertising() throws {
        let interval = try LEAdvertisingInterval(milliseconds: 100)
        #expect(interval.units == 160)
        #expect(HCICommand.leSetAdvertisingParameters(interval: interval).payload ==
            [0x06, 0x20, 0x0F, 0xA0, 0x00, 0xA0, 0x00, 0x03, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0x07, 0x00])
        let data = HCICommand.leSetAdvertisingData([0x02, 0x01, 0x06])
        #expect(data.payload.count == 3 + 32)
        #expect(Array(data.payload.prefix(7)) == [0x08, 0x20, 0x20, 0x03, 0x02, 0x01, 0x06])
        #expect(data.payload.suffix(28).allSatisfy { $0 == 0 })
        #expect(HCICommand.leSetAdvertisingEnable(true).payload == [0x0A, 0x20, 0x01, 0x01])
        #expect(throws: DecodeError.self) { try LEAdvertisingInterval(milliseconds: 10) }
    }

    @Test("extended advertising commands (7.8.52-7.8.56)")
    func extendedAdvertising() throws {
        let params = HCICommand.leSetExtendedAdvertisingParameters(
            handle: 1, properties: LEAdvertisingProperties.legacyNonConnectable,
            interval: try LEAdvertisingInterval(milliseconds: 100), randomAddress: true, sid: 2)
        #expect(params.payload == [
            0x36, 0x20, 25,
            0x01, 0x10, 0x00, 0xA0, 0x00, 0x00, 0xA0, 0x00, 0x00, 0x07, 0x01, 0x00,
            0, 0, 0, 0, 0, 0, 0x00, 0x7F, 0x01, 0x00, 0x01, 0x02, 0x00,
        ])
        #expect(HCICommand.leSetExtendedAdvertisingData(handle: 1, data: [0xAA, 0xBB]).payload ==
            [0x37, 0x20, 0x06, 0x01, 0x03, 0x01, 0x02, 0xAA, 0xBB])
        #expect(HCICommand.leSetExtendedAdvertisingEnable(true, handles: [1]).payload ==
            [0x39, 0x20, 0x06, 0x01, 0x01, 0x01, 0x00, 0x00, 0x00])
        let address = try #require(BDAddress("C0:11:22:33:44:55"))
        #expect(HCICommand.leSetAdvertisingSetRandomAddress(handle: 1, address: address).payload ==
            [0x35, 0x20, 0x07, 0x01, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0])
    }

    @Test("a command as a packet goes host to controller")
    func packet() {
        let packet = HCICommand.reset.packet(at: 12.5)
        #expect(packet.direction == .hostToController)
        #expect(packet.h4Bytes == [0x01, 0x03, 0x0C, 0x00])
        #expect(HCICommand.reset.name == "Reset")
        #expect(HCICommand.name(ofOpcode: 0xFC01) == "command 0xFC01")
    }
}

@Suite("HCI command responses")
struct HCICommandResponseTests {
    @Test("Command Complete carries status and return parameters (7.7.14)")
    func commandComplete() throws {
        let bytes: [UInt8] = [0x0E, 0x0C, 0x01, 0x03, 0x20, 0x00, 0x00, 0x10, 0, 0, 0, 0, 0, 0]
        let response = try #require(try HCICommandResponse(eventPayload: bytes[...]))
        #expect(response.kind == .complete)
        #expect(response.opcode == HCIOpcode.leReadLocalSupportedFeatures)
        #expect(response.succeeded)
        let features = try LEFeatures(returnParameters: response.returnParameters)
        #expect(features.extendedAdvertising)
    }

    @Test("Command Status with Command Disallowed explains itself (7.7.15)")
    func commandStatus() throws {
        let bytes: [UInt8] = [0x0F, 0x04, 0x0C, 0x01, 0x0C, 0x20]
        let response = try #require(try HCICommandResponse(eventPayload: bytes[...]))
        #expect(response.kind == .status)
        #expect(!response.succeeded)
        #expect(response.status == .commandDisallowed)
        #expect(response.status?.description == "Command Disallowed (0x0C)")
        #expect(response.status?.explanation(for: response.opcode).contains("already scanning") == true)
        #expect(HCIStatusCode(rawValue: 0x99).name == "Unknown status 0x99")
    }

    @Test("other events are not responses; short ones throw with the field")
    func malformed() throws {
        #expect(try HCICommandResponse(eventPayload: [0x3E, 0x01, 0x02][...]) == nil)
        #expect(throws: DecodeError(field: "Command_Opcode", offset: 4, reason: "Command Status has 2 parameter bytes, needs 4")) {
            try HCICommandResponse(eventPayload: [0x0F, 0x02, 0x00, 0x01][...])
        }
        #expect(throws: DecodeError(field: "parameter length", offset: 1, reason: "says 4 bytes, 1 present")) {
            try HCICommandResponse(eventPayload: [0x0E, 0x04, 0x01][...])
        }
    }

    @Test("supported commands bits say extended scanning and advertising (6.27)")
    func supportedCommands() throws {
        var octets = [UInt8](repeating: 0, count: 64)
        #expect(try !HCISupportedCommands(returnParameters: octets).extendedScanning)
        octets[37] = 0b0110_0000
        octets[36] = 0b0010_1100
        let commands = try HCISupportedCommands(returnParameters: octets)
        #expect(commands.extendedScanning)
        #expect(commands.extendedAdvertising)
        #expect(throws: DecodeError.self) { try HCISupportedCommands(returnParameters: [0, 1]) }
    }
}
