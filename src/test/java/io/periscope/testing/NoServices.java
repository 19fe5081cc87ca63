package io.periscope.testing;

/**
 * The run of the tests that need neither PostgreSQL nor a browser ({@code mvn verify
 * -Pno-services}): it leaves out the tests marked {@link NeedsPostgres} or {@link NeedsBrowser},
 * and fails a test that reaches for either without the mark, so the subset stays what it says.
 */
public final class NoServices {
  /** The system property the {@code no-services} profile sets in the test JVMs. */
  public static final String PROPERTY = "periscope.test.no-services";

  private NoServices() {}

  public static String refusal(String service, Class<?> category) {
    return "this test needs "
        + service
        + ", which the no-services run leaves out: mark it @Category("
        + category.getSimpleName()
        + ".class)";
  }
}
