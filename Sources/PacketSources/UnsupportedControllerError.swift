import HCI

/// The controller cannot do what beacontop needs, whatever its state: said before anything is
/// sent that would fail in a less clear way.
public struct UnsupportedControllerError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public static let noLowEnergy = UnsupportedControllerError(description:
        "the controller does not support Bluetooth Low Energy (Read Local Supported Features: LE Supported bit 38 clear); "
        + "beacons need an LE (Bluetooth 4.0 or later) adapter")

    /// Checks the LMP feature page 0 (Core 5.4 Vol 2 Part C 3.3: bit 38 is "LE Supported (Controller)").
    public static func requireLowEnergy(lmpFeatures: [UInt8]) throws(UnsupportedControllerError) {
        guard lmpFeatures.count >= 8, lmpFeatures[4] & 0x40 != 0 else { throw .noLowEnergy }
    }
}
