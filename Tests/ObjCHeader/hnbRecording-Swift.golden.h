@interface CallMonitor (SWIFT_EXTENSION(hnbRecording))
- (void)stopRecording;
@end
