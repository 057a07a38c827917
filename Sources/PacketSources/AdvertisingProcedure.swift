import HCI

/// Which advertising commands were used: an extended advertising set (Core 5.4 Vol 4 Part E
/// 7.8.53-56) carrying a legacy ADV_NONCONN_IND PDU, or the legacy commands (7.8.5-9).
public enum AdvertisingMode: String, Sendable, Equatable {
    case legacy
    case extended
}

/// Makes a controller send a beacon's advertising data, and stops it.
///
/// Extended advertising is preferred where the controller lists it: the set still sends a legacy
/// non-connectable PDU (which every scanner hears) but some controllers, Bumble's among them,
/// only transmit legacy-command advertising of type ADV_IND.
public enum AdvertisingProcedure {
    /// The one advertising set beacontop uses.
    public static let handle: UInt8 = 0

    public static func start(
        on controller: some HCICommandExecutor, data: [UInt8], interval: LEAdvertisingInterval, resetFirst: Bool = true
    ) async throws -> AdvertisingMode {
        if resetFirst { try await controller.run(.reset) }
        try UnsupportedControllerError.requireLowEnergy(
            lmpFeatures: try await controller.run(.readLocalSupportedFeatures).returnParameters)
        let commands = try HCISupportedCommands(
            returnParameters: try await controller.run(.readLocalSupportedCommands).returnParameters)
        let features = try LEFeatures(
            returnParameters: try await controller.run(.leReadLocalSupportedFeatures).returnParameters)
        // The feature bit makes the extended commands mandatory (Part E 3.1), see `ScanMode`.
        if commands.extendedAdvertising || features.extendedAdvertising {
            try await controller.run(.leSetExtendedAdvertisingParameters(
                handle: handle, properties: LEAdvertisingProperties.legacyNonConnectable, interval: interval))
            // The set exists from here on: a refused data or enable must not leave it behind.
            do {
                try await controller.run(.leSetExtendedAdvertisingData(handle: handle, data: data))
            } catch {
                await removeSet(on: controller, enableUnanswered: false)
                throw error
            }
            do {
                try await controller.run(.leSetExtendedAdvertisingEnable(true, handles: [handle]))
            } catch {
                await removeSet(on: controller, enableUnanswered: !(error is CommandFailure))
                throw error
            }
            return .extended
        }
        try await controller.run(.leSetAdvertisingParameters(interval: interval))
        try await controller.run(.leSetAdvertisingData(data))
        do {
            try await controller.run(.leSetAdvertisingEnable(true))
        } catch {
            // As for the extended set: an enable that got no answer may have taken effect.
            if !(error is CommandFailure) { _ = try? await controller.run(disable(.legacy)) }
            throw error
        }
        return .legacy
    }

    public static func stop(on controller: some HCICommandExecutor, mode: AdvertisingMode) async throws {
        try await controller.run(disable(mode))
        if mode == .extended { try await controller.run(.leRemoveAdvertisingSet(handle: handle)) }
    }

    /// Undoes a start that failed after the set was made. A refused enable left it disabled, but
    /// one that got no answer may have taken effect, and a controller refuses to remove an enabled
    /// set (Core 5.4 Vol 4 Part E 7.8.59). Best effort: the start's own error is the one reported.
    private static func removeSet(on controller: some HCICommandExecutor, enableUnanswered: Bool) async {
        if enableUnanswered { _ = try? await controller.run(disable(.extended)) }
        _ = try? await controller.run(.leRemoveAdvertisingSet(handle: handle))
    }

    /// The one command that stops the transmitting (a crash handler has room for one).
    public static func disable(_ mode: AdvertisingMode) -> HCICommand {
        switch mode {
        case .extended: .leSetExtendedAdvertisingEnable(false, handles: [handle])
        case .legacy: .leSetAdvertisingEnable(false)
        }
    }
}
