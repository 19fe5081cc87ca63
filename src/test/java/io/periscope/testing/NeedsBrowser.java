package io.periscope.testing;

/**
 * JUnit category of the tests that drive Chromium through its chromedriver: the {@code no-services}
 * profile leaves them out.
 */
public interface NeedsBrowser {}
