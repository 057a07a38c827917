import HCI
import Synchronization
@testable import PacketSources

/// A controller in a test: answers each command with Command Complete (success, or the status
/// a test sets for that opcode) and records what it was sent.
final class ScriptedController: HCICommandExecutor {
    let extendedCommands: Bool
    let extendedFeature: Bool
    let failures: [UInt16: HCIStatusCode]
    let lowEnergy: Bool
    /// Opcodes it never answers: the command times out, as `LiveSource` says it.
    let unanswered: Set<UInt16>
    let sent = Mutex<[HCICommand]>([])

    init(extendedCommands: Bool = false, extendedFeature: Bool = false, failures: [UInt16: HCIStatusCode] = [:], lowEnergy: Bool = true,
         unanswered: Set<UInt16> = []) {
        self.lowEnergy = lowEnergy
        self.unanswered = unanswered
        self.extendedCommands = extendedCommands
        self.extendedFeature = extendedFeature
        self.failures = failures
    }

    var opcodes: [UInt16] { sent.withLock { $0.map(\.opcode) } }

    func execute(_ command: HCICommand) async throws -> HCICommandResponse {
        sent.withLock { $0.append(command) }
        if unanswered.contains(command.opcode) {
            throw TransportError.commandTimedOut(command: command.name, seconds: 3, unframedBytes: 0)
        }
        var parameters: [UInt8] = []
        switch command.opcode {
        case HCIOpcode.readLocalSupportedCommands:
            parameters = [UInt8](repeating: 0, count: 64)
            if extendedCommands {
                parameters[36] = 0b0010_1110
                parameters[37] = 0b0110_0000
            }
        case HCIOpcode.readLocalSupportedFeatures:
            parameters = [0xFF, 0xFF, 0x8F, 0xFE, lowEnergy ? 0xDB : 0x9B, 0xFF, 0x5B, 0x87] // a real adapter's page 0
        case HCIOpcode.leReadLocalSupportedFeatures:
            parameters = [0, extendedFeature ? 0x10 : 0, 0, 0, 0, 0, 0, 0] // bit 12: LE Extended Advertising
        default:
            break
        }
        return HCICommandResponse(
            kind: .complete, opcode: command.opcode, allowedCommandPackets: 1,
            status: failures[command.opcode] ?? .success, returnParameters: parameters)
    }
}
