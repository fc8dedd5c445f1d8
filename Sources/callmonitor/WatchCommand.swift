// `callmonitor watch`: its option table and help, read into `WatchOptions` for the WatchSession
// (Watch.swift), which exists only in a Linux build with the Telephony trait. The options are
// checked in every build, so a mistake is named before the missing trait is.

import Dispatch
import ScenarioLanguage
import hnb

struct WatchCommand: ToolCommand {
    let name = "watch"

    /// What watch does without options; the help says these same values.
    private static var defaults: WatchOptions { WatchOptions() }

    var options: OptionTable<WatchOptions> {
        let range = PolicyWords.optionSeconds
        return OptionTable(words: .none("watch takes no arguments besides its options"), [
            .checked("--backend", "modemmanager|ofono|auto", """
                the daemon to read (default auto: ModemManager if it is on
                the bus, else oFono, else the first of them to appear)
                """) { options, name throws(OptionValueError) in
                #if os(Linux)
                if name == "auto" {
                    options.backend = .auto
                    return
                }
                guard let backend = Telephony.Backend(rawValue: name) else { throw .invalid("--backend must be modemmanager, ofono or auto") }
                options.backend = .only(backend)
                #else
                // The telephony types exist only on Linux; the option is still checked the same way.
                guard ["auto", "modemmanager", "ofono"].contains(name) else { throw .invalid("--backend must be modemmanager, ofono or auto") }
                #endif
            },
            .flow("the policy (default \(Self.defaults.flow))") { $0.flow = $1 },
            .seconds("""
                the countdown or the acknowledge delay, \(range.lowerBound) to \(range.upperBound) (default \(Self.defaults.seconds);
                terminate clamps 0 to 1)
                """) { $0.seconds = $1 },
            .language("language of the dialog: \(Languages.available.joined(separator: " "))") { $0.strings = $1 },
            .flag("--no-exit", "report the force exit instead of performing it") { $0.performExit = false },
            .text("--record", "FILE", "record the monitor's session to FILE (replay it with\n'callmonitor replay FILE --check')") { $0.record = $1 },
        ])
    }

    let summary = """
        Monitors this Linux phone's real calls (ModemManager or oFono over D-Bus); needs a build
        with --traits Telephony. Dialog on the terminal, transcript as JSON Lines, real exit at 0.
        """

    let about = """
        Runs the real monitor against this Linux phone's telephony daemon over the D-Bus system bus
        (DBUS_SYSTEM_BUS_ADDRESS if set). Needs a build with the Telephony trait: swift build --traits
        Telephony (Debian: libdbus-1-dev). The dialog is drawn on standard error when it is a terminal;
        standard output gets a transcript as JSON Lines; a line on standard input taps the dialog's button.
        """

    let details: String? = """
        transcript kinds: watch, telephony (status watching|waiting|lost|failed), calls (complete, each
        call's id, state ringing|connected|held|ended and direction), event, alert, dismiss, exit, tap,
        stopped. t is real seconds since the start.

        exit status: 0 when the terminate countdown force-exits; 128+signal when stopped (Ctrl-C: 130);
        2 on a bad option or a build without the Telephony trait.

        """

    @MainActor
    func run(_ arguments: ArraySlice<String>) -> Never {
        let (options, _) = parse(arguments)
        #if Telephony && os(Linux)
        let session = WatchSession(options: options)
        session.start()
        withExtendedLifetime(session) { dispatchMain() }
        #else
        _ = options // read all the same: a wrong option is named before the missing trait
        fail("watch needs telephony support: build with `swift build --traits Telephony` on Linux (Debian: apt-get install libdbus-1-dev)")
        #endif
    }
}
