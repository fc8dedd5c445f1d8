// A stand-in for the Objective-C runtime's root class (objc/NSObject.h), read only by
// scripts/objc-header, never shipped. The compiler treats a Swift class as an Objective-C class
// only when it descends from a root class that comes from Objective-C, so the stand-in is a
// header, not Swift.
__attribute__((objc_root_class))
@interface NSObject
+ (instancetype)alloc;
+ (instancetype)new __attribute__((availability(swift, unavailable, message="use object initializers instead")));
- (instancetype)init;
@end
