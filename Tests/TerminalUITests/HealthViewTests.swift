import BeaconFormats
import HCI
import Monitor
import Survey
import Testing
@testable import TerminalUI

/// The `H` health view: two rows a technician must tell apart stay apart at 80 and 120 columns
/// (the ids are govee-h5100.btsnoop's, whose iBeacons share the UUID "INTELLI_ROCKS_HW" and differ
/// in major and minor; one identity is sent from several addresses, one with measured power +12:
/// the ids, addresses and finding are the capture's, the values made up).
@Suite struct HealthViewTests {
    static let uuid = UUIDBytes("494E5445-4C4C-495F-524F-434B535F4857")!

    static func transmitter(major: UInt16, minor: UInt16, address: String, findings: [HealthFinding] = []) -> BeaconHealth {
        BeaconHealth(
            address: BDAddress(address)!, identities: [.iBeacon(uuid: uuid, major: major, minor: minor)], exhibit: nil,
            firstSeen: 0, lastSeen: 60, frames: 29, lastRSSI: -70, telemetry: nil,
            interval: AdvertisingIntervalEstimate(period: 1.02, eventsHeard: 50, eventsSent: 58),
            frameMeasuredPower: -62, findings: findings
        )
    }

    static let transmitters = [
        transmitter(major: 20596, minor: 25984, address: "E3:60:59:21:80:65"),
        transmitter(major: 20596, minor: 32020, address: "E3:60:59:23:14:7D"),
        transmitter(major: 20597, minor: 62207, address: "A4:C1:38:05:C7:A1"),
        transmitter(major: 20597, minor: 62207, address: "C2:35:33:30:25:50", findings: [.nonsenseMeasuredPower(frame: 12)]),
    ]

    static func screen(columns: Int) -> ScreenBuffer {
        let model = MonitorViewModel(rows: [], source: SourceStatus(name: "govee-h5100.btsnoop"), screen: .health,
                                     health: BeaconConditions(time: 60, transmitters: transmitters))
        return render(model, size: ScreenSize(columns: columns, lines: 12))
    }

    /// The four transmitters' lines (the finding's line under the last one skipped).
    static func rows(_ screen: ScreenBuffer) -> [String] {
        [2, 3, 4, 5].map { screen.line($0) }
    }

    @Test("120 columns: each id whole but for the middle of its UUID, the whole address, every value column")
    func wide() {
        let screen = Self.screen(columns: 120)
        #expect(screen.line(1).hasSuffix(" LOSS"))
        let rows = Self.rows(screen)
        #expect(rows[0] == " 494E5445-4C4C-495F-524F-434B535F4…:20596:25984 E3:60:59:21:80:65       -      -       -        -       -   1.02 s   14%")
        #expect(rows[3].hasPrefix("!494E5445-4C4C-495F-524F-434B535F4…:20597:62207 C2:35:33:30:25:50"))
        #expect(Set(rows).count == 4)
        for (row, tail) in zip(rows, [":20596:25984", ":20596:32020", ":20597:62207", ":20597:62207"]) {
            #expect(row.contains(tail + " "), "\(row)")
        }
    }

    @Test("80 columns: the id keeps major and minor, the address its last three bytes, and LOSS still fits")
    func narrow() {
        let screen = Self.screen(columns: 80)
        #expect(screen.line(1).hasSuffix(" LOSS"), "\(screen.line(1))")
        let rows = Self.rows(screen)
        #expect(rows[0] == " 4…:20596:25984 …21:80:65       -      -       -        -       -   1.02 s   14%")
        #expect(rows[2].hasPrefix(" 4…:20597:62207 …05:C7:A1 "))
        #expect(rows[3].hasPrefix("!4…:20597:62207 …30:25:50 "))
        // Name and address columns alone tell every row apart.
        #expect(Set(rows.map { $0.prefix(25) }).count == 4)
    }

    @Test("From 95 columns the address is whole and the name holds the table's short id")
    func fullAddressFrom95() {
        let screen = Self.screen(columns: 95)
        #expect(Self.rows(screen)[1].hasPrefix(" 494E5445…:20596:32020 E3:60:59:23:14:7D "))
        #expect(screen.line(1).hasSuffix(" LOSS"))
    }

    @Test("Cutting in the middle: whole when it fits, an id's tail kept, two thirds of other text, wide characters and ASCII")
    func cut() {
        #expect(HealthView.cutInTheMiddle("Lewis Chessmen", width: 14, charset: .unicode) == "Lewis Chessmen")
        #expect(HealthView.cutInTheMiddle("tlm:A4:C1:38:0D:3B:10", width: 10, charset: .unicode) == "tlm…:3B:10")
        #expect(HealthView.cutInTheMiddle("Booth 12 north wall beacon A", width: 13, charset: .unicode) == "Boot…beacon A")
        #expect(HealthView.cutInTheMiddle("Booth 12 north wall beacon A", width: 13, charset: .ascii) == "Boot~beacon A")
        let wide = HealthView.cutInTheMiddle("東京国立博物館の展示ケース北", width: 9, charset: .unicode)
        #expect(TerminalText.width(wide, charset: .unicode) <= 9 && wide.hasSuffix("ス北") && wide.hasPrefix("東"), "\(wide)")
        #expect(HealthView.cutInTheMiddle("abcdef", width: 2, charset: .unicode) == "ab")
    }

    @Test("Under 73 columns values leave uptime first, then count, temperature, TLM age; interval and loss stay, nothing runs off the edge")
    func valuesLeaveInOrder() {
        let screen60 = Self.screen(columns: 60)
        #expect(screen60.line(1) == " NAME        ADDRESS   BATTERY   TEMP TLM AGE INTERVAL  LOSS", "\(screen60.line(1))")
        #expect(Self.rows(screen60)[0] == " 494E…:25984 …21:80:65       -      -       -   1.02 s   14%", "\(Self.rows(screen60)[0])")
        #expect(HealthView.columnWidths(width: 73).values == Array(HealthView.headings.indices))
        #expect(HealthView.columnWidths(width: 72).values == [0, 1, 2, 3, 5, 6])
        #expect(HealthView.columnWidths(width: 40).values == [5, 6])
        // Every width: the last value column ends inside the screen, the name keeps its 8 cells.
        for width in 30...130 {
            let (name, address, values) = HealthView.columnWidths(width: width)
            let end = name + 1 + address + values.reduce(0) { $0 + 1 + HealthView.headings[$1].width }
            #expect(name >= HealthView.minimumNameWidth && end <= width, "width \(width): ends at \(end)")
        }
    }

    @Test("The title counts the transmitters listed, not the table's beacons, and leaves out the table's sort")
    func titleCountsTransmitters() {
        let screen = Self.screen(columns: 100)
        #expect(screen.line(0).hasSuffix(" 4 transmitters "), "\(screen.line(0))")
        #expect(!screen.line(0).contains("sort:"))
        let one = MonitorViewModel(rows: [], source: SourceStatus(name: "x"), screen: .health,
                                   health: BeaconConditions(time: 60, transmitters: [Self.transmitters[0]]))
        #expect(render(one, size: ScreenSize(columns: 80, lines: 12)).line(0).hasSuffix(" 1 transmitter "))
    }
}
