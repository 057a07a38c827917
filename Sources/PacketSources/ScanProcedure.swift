import HCI

/// How to scan: passive (default) or active, and the scan timing.
public struct ScanOptions: Sendable, Equatable {
    public var type: LEScanType
    public var timing: LEScanTiming
    /// Reset the controller first. Not on the kernel raw channel, where bluetoothd shares the
    /// adapter and a reset would pull its state away under it.
    public var resetFirst: Bool

    public init(type: LEScanType = .passive, timing: LEScanTiming = .continuous, resetFirst: Bool = true) {
        self.type = type
        self.timing = timing
        self.resetFirst = resetFirst
    }
}

/// Which scanning commands a controller got: LE Set Extended Scan Parameters/Enable (Core 5.4
/// Vol 4 Part E 7.8.64-65) when it lists them in its supported commands or reports the LE
/// Extended Advertising feature (which makes them mandatory, Part E 3.1; Bumble's emulation
/// reports the feature but leaves the commands out of its mask), legacy otherwise.
/// A controller that supports the extended commands may refuse the legacy ones once it has
/// seen an extended one, and the other way round (Part E 3.1.1), so one procedure sticks to one.
public enum ScanMode: String, Sendable, Equatable {
    case legacy
    case extended
}

/// Starts and stops LE scanning on a controller, checking every Command Complete/Status.
///
/// Duplicate filtering is always off: ranging needs every packet's RSSI, and a controller with
/// filtering on reports each advertiser once (Part E 7.8.11).
public enum ScanProcedure {
    public static func start(on controller: some HCICommandExecutor, options: ScanOptions) async throws -> ScanMode {
        if options.resetFirst {
            try await controller.run(.reset)
            try await controller.run(.setEventMask(HCICommand.eventMaskWithLEMeta))
        }
        try UnsupportedControllerError.requireLowEnergy(
            lmpFeatures: try await controller.run(.readLocalSupportedFeatures).returnParameters)
        let commands = try HCISupportedCommands(
            returnParameters: try await controller.run(.readLocalSupportedCommands).returnParameters)
        let features = try LEFeatures(
            returnParameters: try await controller.run(.leReadLocalSupportedFeatures).returnParameters)
        let mode: ScanMode = commands.extendedScanning || features.extendedAdvertising ? .extended : .legacy
        if options.resetFirst {
            try await controller.run(.leSetEventMask(HCICommand.leEventMaskForScanning))
        }
        switch mode {
        case .extended:
            try await controller.run(.leSetExtendedScanParameters(type: options.type, timing: options.timing))
        case .legacy:
            try await controller.run(.leSetScanParameters(type: options.type, timing: options.timing))
        }
        do {
            try await controller.run(mode == .extended ? .leSetExtendedScanEnable(true, filterDuplicates: false) : .leSetScanEnable(true, filterDuplicates: false))
        } catch {
            // An enable that got no answer may have taken effect, and the failed start sends no
            // disable at its exit: the controller went on scanning. Disabled, best effort (a
            // refused enable did nothing); the start's own error is the one reported.
            if !(error is CommandFailure) { _ = try? await controller.run(disable(mode)) }
            throw error
        }
        return mode
    }

    /// Starts scanning again on a controller that came back after a loss (it forgot its scan
    /// state); returns what went wrong, for the source to report (`LiveSource.onReconnect`).
    public static func restart(on controller: some HCICommandExecutor, options: ScanOptions) async -> String? {
        do {
            _ = try await start(on: controller, options: options)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Disables scanning with the command family that enabled it.
    public static func stop(on controller: some HCICommandExecutor, mode: ScanMode) async throws {
        try await controller.run(disable(mode))
    }

    /// The command that disables scanning started in `mode`.
    public static func disable(_ mode: ScanMode) -> HCICommand {
        switch mode {
        case .extended: .leSetExtendedScanEnable(false, filterDuplicates: false)
        case .legacy: .leSetScanEnable(false, filterDuplicates: false)
        }
    }
}
