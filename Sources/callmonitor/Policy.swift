// The policy applied to a monitor as the tool's users write it (the words themselves are the
// scenario language's, Sources/ScenarioLanguage/PolicyWords.swift).

import ScenarioLanguage
import hnb

extension CallMonitor {
    /// `startMonitoring(withTerminateIn:)` or `startMonitoring(withAcknowledgeIn:)`, by `flow`.
    func startMonitoring(_ flow: CallMonitorFlow, seconds: Int32) {
        switch flow {
        case .terminate: startMonitoring(withTerminateIn: seconds)
        case .acknowledge: startMonitoring(withAcknowledgeIn: seconds)
        }
    }

    /// `protect(withTerminateIn:)` or `protect(withAcknowledgeIn:)`, by `flow`.
    func protect(_ flow: CallMonitorFlow, seconds: Int32, context: CallMonitorContext? = nil) -> CallMonitorProtection {
        switch flow {
        case .terminate: protect(withTerminateIn: seconds, context: context)
        case .acknowledge: protect(withAcknowledgeIn: seconds, context: context)
        }
    }

    /// `protect(named:withTerminateIn:)` or `protect(named:withAcknowledgeIn:)`, by `flow`: a
    /// scenario's protections have names, which a signed policy's `screens` address (issue 28).
    func protect(named name: String, _ flow: CallMonitorFlow, seconds: Int32, context: CallMonitorContext? = nil) -> CallMonitorProtection {
        switch flow {
        case .terminate: protect(named: name, withTerminateIn: seconds, context: context)
        case .acknowledge: protect(named: name, withAcknowledgeIn: seconds, context: context)
        }
    }

    /// `protectWhileScreenCaptured(withTerminateIn:)` or `…(withAcknowledgeIn:)`, by `flow`.
    func protectWhileScreenCaptured(_ flow: CallMonitorFlow, seconds: Int32) {
        switch flow {
        case .terminate: protectWhileScreenCaptured(withTerminateIn: seconds)
        case .acknowledge: protectWhileScreenCaptured(withAcknowledgeIn: seconds)
        }
    }
}

extension OptionSpec {
    /// `--flow terminate|acknowledge`, as demo and watch read it; `store` puts the flow in the options.
    static func flow(_ help: String, _ store: @escaping @Sendable (inout Options, CallMonitorFlow) -> Void) -> OptionSpec {
        .checked("--flow", "terminate|acknowledge", help) { options, word throws(OptionValueError) in
            do throws(PolicyWordError) {
                store(&options, try PolicyWords.flow(word, option: "--flow"))
            } catch {
                throw OptionValueError(error)
            }
        }
    }

    /// `--seconds N` within ``PolicyWords/optionSeconds``, as demo and watch read it.
    static func seconds(_ help: String, _ store: @escaping @Sendable (inout Options, Int32) -> Void) -> OptionSpec {
        .checked("--seconds", "N", help) { options, word throws(OptionValueError) in
            do throws(PolicyWordError) {
                store(&options, try PolicyWords.seconds(word, option: "--seconds"))
            } catch {
                throw OptionValueError(error)
            }
        }
    }
}
