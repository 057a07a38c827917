import Monitor
import Testing

@Suite struct KeyMapTests {
    let map = KeyMap.standard

    @Test func theIssueKeysMapToTheirActions() {
        let expected: [(Key, MonitorAction)] = [
            (.character("q"), .quit), (.up, .selectPrevious), (.down, .selectNext), (.enter, .toggleDetail),
            (.character("s"), .cycleSort), (.character("/"), .beginFilter), (.character("f"), .cycleRangingFilter),
            (.character(" "), .togglePause), (.character("."), .step), (.character("+"), .speedUp), (.character("-"), .slowDown),
            (.left, .seekBackward), (.right, .seekForward), (.character("r"), .toggleRecording),
            (.character("c"), .calibrate), (.character("e"), .toggleEventLog), (.character("?"), .toggleHelp),
            (.character("n"), .toggleScannerList), (.character("d"), .toggleDeviceList), (.escape, .back), (.resize, .resize),
        ]
        for (key, action) in expected {
            #expect(map.action(for: key) == action, "\(key)")
        }
        #expect(map.action(for: .character("z")) == nil)
        #expect(map.action(for: .character("Q")) == nil)
    }

    @Test func noKeyIsBoundTwice() {
        let keys = map.bindings.flatMap(\.keys)
        #expect(Set(keys).count == keys.count)
    }

    @Test func everyBindingHasAHelpLineAndEveryActionAKey() {
        #expect(map.bindings.allSatisfy { !$0.summary.isEmpty && !$0.keys.isEmpty })
        let bound = Set(map.bindings.map(\.action))
        // Actions reached otherwise: a click selects a row, KEY_RESIZE resizes.
        let keyless: Set<MonitorAction> = [.selectRow(0), .resize]
        let all: [MonitorAction] = [.quit, .selectPrevious, .selectNext, .selectFirst, .selectLast, .pageUp, .pageDown,
                                    .toggleDetail, .cycleSort, .beginFilter, .cycleRangingFilter, .togglePause, .step, .speedUp,
                                    .slowDown, .seekBackward, .seekForward, .toggleRecording, .calibrate, .toggleEventLog,
                                    .toggleScannerList, .toggleDeviceList, .toggleHelp, .back]
        for action in all { #expect(bound.contains(action), "\(action) has no key") }
        #expect(bound.isDisjoint(with: keyless))
    }

    @Test func aCustomTableReplacesTheStandardOne() {
        let custom = KeyMap(bindings: [KeyBinding([.character("x")], .quit, "leave")])
        #expect(custom.action(for: .character("x")) == .quit)
        #expect(custom.action(for: .character("q")) == nil)
    }
}
