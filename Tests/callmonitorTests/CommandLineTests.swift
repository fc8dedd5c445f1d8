// Split out of CommandTests.swift so that each file holds one suite, named as the file (issue 39).

import Dispatch
import Foundation
import Testing
import hnbTesting

/// Every test here starts processes. They run one at a time so that no child can inherit a pipe
/// another test is waiting on (a leaked pipe end would keep that test waiting for ever).
@Suite("callmonitor command", .serialized)
struct CommandLineTests {}
