// `callmonitor demo`: its option table and help, read into `DemoOptions` for the Demo (Demo.swift).

import Dispatch
import ScenarioLanguage
import hnb

struct DemoCommand: ToolCommand {
    let name = "demo"

    /// What the demo plays without options; the help and the summary say these same values.
    private static var defaults: DemoOptions { DemoOptions() }

    var options: OptionTable<DemoOptions> {
        let range = PolicyWords.optionSeconds
        return OptionTable(words: .none("demo takes no arguments besides its options"), [
            .flow("the policy (default \(Self.defaults.flow))") { $0.flow = $1 },
            .seconds("""
                the countdown or the acknowledge delay, \(range.lowerBound) to \(range.upperBound) (default \(Self.defaults.seconds);
                terminate clamps 0 to 1)
                """) { $0.seconds = $1 },
            .checked("--speed", "X", "play X times faster, 0.1 to 1000 (default 1)") { options, text throws(OptionValueError) in
                guard let speed = Double(text), speed.isFinite, speed >= 0.1, speed <= 1000 else {
                    throw .invalid("--speed must be a number from 0.1 to 1000")
                }
                options.speed = speed
            },
            .language("""
                language of the dialog: \(Languages.available.joined(separator: " "))
                (only the dialog: it is what the user sees; the narration
                around it explains the library to you and stays in English)
                """) { $0.strings = $1 },
            .flag("--interactive", "drive it yourself with keys instead of the built-in story") { $0.interactive = true },
            .text("--record", "FILE", "record the monitor's session on the live clock to FILE (replay it with\n'callmonitor replay FILE --check')") {
                $0.record = $1
            },
        ])
    }

    var summary: String {
        "Plays the policy in real time in the terminal. Defaults: "
            + "\(PolicyWords.describe(Self.defaults.flow, seconds: Self.defaults.seconds)), speed 1."
    }

    let about = """
        Plays the policy in real time through the production engine and the live scheduler, drawing the
        built-in dialog as a box that fits the terminal (plain lines when the output is not a terminal).
        """

    let details: String? = """
        interactive keys:
          i   a new incoming call            a   answer the latest ringing call
          h   hang up the latest call        t   tap the dialog's button
          b   background / foreground        q   quit (Ctrl-C too)

        """

    @MainActor
    func run(_ arguments: ArraySlice<String>) -> Never {
        let (options, _) = parse(arguments)
        let demo = Demo(options: options)
        demo.start()
        withExtendedLifetime(demo) { dispatchMain() }
    }
}
