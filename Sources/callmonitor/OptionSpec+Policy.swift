// The `--flow` and `--seconds` options of demo and watch, read with the scenario language's
// policy words. Apart from Policy.swift so that the fuzz target, which compiles the simulation
// and its policy words, need not compile the option table.

import ScenarioLanguage
import hnb

extension OptionSpec {
    /// `--flow terminate|acknowledge`, as demo and watch read it; `store` puts the flow in the options.
    static func flow(_ help: String, _ store: @escaping @Sendable (inout Options, CallMonitorFlow) -> Void) -> OptionSpec {
        .checked("--flow", "terminate|acknowledge", help) { options, word throws(OptionValueError) in
            do {
                store(&options, try PolicyWords.flow(word, option: "--flow"))
            } catch {
                throw OptionValueError(error.narrowed(or: PolicyWordError.unexpected))
            }
        }
    }

    /// `--seconds N` within ``PolicyWords/optionSeconds``, as demo and watch read it.
    static func seconds(_ help: String, _ store: @escaping @Sendable (inout Options, Int32) -> Void) -> OptionSpec {
        .checked("--seconds", "N", help) { options, word throws(OptionValueError) in
            do {
                store(&options, try PolicyWords.seconds(word, option: "--seconds"))
            } catch {
                throw OptionValueError(error.narrowed(or: PolicyWordError.unexpected))
            }
        }
    }
}
