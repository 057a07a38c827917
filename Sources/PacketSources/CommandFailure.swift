import HCI

/// A command the controller refused, in words: which command, the status the spec names, and
/// what it most likely means here ("LE Set Scan Enable failed: Command Disallowed (0x0C): the
/// adapter is already scanning ...").
public struct CommandFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var opcode: UInt16
    public var status: HCIStatusCode

    public init(opcode: UInt16, status: HCIStatusCode) {
        self.opcode = opcode
        self.status = status
    }

    public var description: String {
        "\(HCICommand.name(ofOpcode: opcode)) failed: \(status): \(status.explanation(for: opcode))"
    }
}

extension HCICommandExecutor {
    /// Runs `command` and throws `CommandFailure` unless it succeeded.
    @discardableResult
    public func run(_ command: HCICommand) async throws -> HCICommandResponse {
        let response = try await execute(command)
        if let status = response.status, status != .success {
            throw CommandFailure(opcode: command.opcode, status: status)
        }
        return response
    }
}
