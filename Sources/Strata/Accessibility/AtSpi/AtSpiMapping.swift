/// Strata's roles and states as AT-SPI numbers and names (at-spi2-core's
/// `AtspiRole` and `AtspiStateType`), mapped the way GTK 4 maps its roles.
enum AtSpiMapping {
    /// The AT-SPI role and its name.
    static func role(_ role: AccessibilityRole) -> (number: UInt32, name: String) {
        switch role {
        case .application: (75, "application")
        case .window: (23, "frame")
        case .popupWindow: (69, "window")
        case .dialog: (16, "dialog")
        case .alert: (2, "alert")
        case .button: (43, "push button")
        case .toggleButton: (62, "toggle button")
        case .slider: (51, "slider")
        case .progressBar: (42, "progress bar")
        case .textField: (61, "text")
        case .passwordField: (40, "password text")
        case .label: (29, "label")
        case .heading: (83, "heading")
        case .link: (88, "link")
        case .image: (27, "image")
        case .list: (31, "list")
        case .listItem: (32, "list item")
        case .scrollArea: (49, "scroll pane")
        case .group: (99, "grouping")
        case .panel: (39, "panel")
        case .tab: (37, "page tab")
        case .tabList: (38, "page tab list")
        case .menu: (33, "menu")
        case .menuItem: (35, "menu item")
        case .toolTip: (64, "tool tip")
        case .spinButton: (52, "spin button")
        case .notification: (101, "notification")
        }
    }

    /// The AT-SPI state's number (its bit in `GetState`'s two words).
    static func state(_ state: AccessibilityState) -> Int {
        switch state {
        case .active: 1
        case .checked: 4
        case .defunct: 6
        case .editable: 7
        case .enabled: 8
        case .focusable: 11
        case .focused: 12
        case .horizontal: 14
        case .modal: 16
        case .multiLine: 17
        case .selectable: 22
        case .selected: 23
        case .sensitive: 24
        case .showing: 25
        case .singleLine: 26
        case .visible: 30
        case .checkable: 41
        case .readOnly: 43
        case .collapsed: 5
        case .expandable: 9
        case .expanded: 10
        case .multiSelectable: 18
        case .hasPopup: 42
        }
    }

    /// The name AT-SPI's `StateChanged` event gives a state.
    static func stateName(_ state: AccessibilityState) -> String {
        switch state {
        case .active: "active"
        case .checked: "checked"
        case .defunct: "defunct"
        case .editable: "editable"
        case .enabled: "enabled"
        case .focusable: "focusable"
        case .focused: "focused"
        case .horizontal: "horizontal"
        case .modal: "modal"
        case .multiLine: "multi-line"
        case .selectable: "selectable"
        case .selected: "selected"
        case .sensitive: "sensitive"
        case .showing: "showing"
        case .singleLine: "single-line"
        case .visible: "visible"
        case .checkable: "checkable"
        case .readOnly: "read-only"
        case .expandable: "expandable"
        case .expanded: "expanded"
        case .collapsed: "collapsed"
        case .hasPopup: "has-popup"
        case .multiSelectable: "multiselectable"
        }
    }

    /// A state set as `GetState`'s two 32-bit words.
    static func words(_ states: Set<AccessibilityState>) -> (UInt32, UInt32) {
        var low: UInt32 = 0, high: UInt32 = 0
        for s in states {
            let bit = state(s)
            if bit < 32 { low |= 1 << UInt32(bit) } else { high |= 1 << UInt32(bit - 32) }
        }
        return (low, high)
    }

    /// AT-SPI's relation types (`AtspiRelationType`) Strata reports.
    static let labelFor: UInt32 = 1, labelledBy: UInt32 = 2

    /// AT-SPI's coordinate types (`AtspiCoordType`).
    static let screenCoordinates: UInt32 = 0, windowCoordinates: UInt32 = 1, parentCoordinates: UInt32 = 2
}
