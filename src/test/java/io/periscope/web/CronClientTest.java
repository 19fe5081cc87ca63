package io.periscope.web;

import static org.junit.Assert.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.periscope.testing.NeedsBrowser;
import io.periscope.watch.CronExpressions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The web client's cron ({@code web/lib/cron.js}, which shows a schedule's next fire times) agrees
 * with the service's ({@link CronExpressions}, which fires them): the same expressions, zones and
 * starting instants, run in Chromium and on the JVM, give the same next times. The starts include
 * both daylight-saving changes of Europe/Berlin and America/New_York.
 */
@Category(NeedsBrowser.class)
public class CronClientTest {
  private static final int COUNT = 6;

  private static final List<String> EXPRESSIONS =
      List.of(
          "* * * * *",
          "0 */6 * * *",
          "30 7 * * *",
          "*/15 9-17 * * mon-fri",
          "0 0 1,15 * *",
          "0 12 * * 0",
          "0 12 * * 7",
          "5 4 * jan,jul *",
          "0 0 13 * fri",
          "30 2 * * *",
          "30 1 * * *",
          "0 9 29 2 *",
          "10-20/5 3 * * sun");

  private static final List<String> ZONES =
      List.of("UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata");

  private static final List<Instant> STARTS =
      List.of(
          Instant.parse("2026-03-28T12:00:00Z"), // EU clocks go forward on 29 March
          Instant.parse("2026-03-07T12:00:00Z"), // US clocks go forward on 8 March
          Instant.parse("2026-10-24T12:00:00Z"), // EU clocks go back on 25 October
          Instant.parse("2026-10-31T12:00:00Z"), // US clocks go back on 1 November
          Instant.parse("2026-12-31T23:59:30Z"));

  @Test
  public void nextFireTimesMatchTheService() throws Exception {
    List<Map<String, Object>> cases = new ArrayList<>();
    List<List<Instant>> expected = new ArrayList<>();
    for (String expression : EXPRESSIONS)
      for (String zone : ZONES)
        for (Instant start : STARTS) {
          cases.add(Map.of("expression", expression, "zone", zone, "from", start.toString()));
          expected.add(serviceTimes(expression, ZoneId.of(zone), start));
        }

    List<List<Instant>> shown = clientTimes(new ObjectMapper().writeValueAsString(cases));

    List<String> differ = new ArrayList<>();
    for (int i = 0; i < cases.size(); i++)
      if (!expected.get(i).equals(shown.get(i)))
        differ.add(cases.get(i) + ": service " + expected.get(i) + ", client " + shown.get(i));
    assertEquals(cases.size(), shown.size());
    assertEquals(
        "cases where the client shows other times than the service fires", List.of(), differ);
  }

  /**
   * The service's next times within the client's horizon (it looks five years of 366 days ahead).
   */
  private static List<Instant> serviceTimes(String expression, ZoneId zone, Instant start) {
    Instant horizon = start.plus(Duration.ofDays(5 * 366));
    List<Instant> times = new ArrayList<>();
    Instant at = start;
    for (int i = 0; i < COUNT; i++) {
      at = CronExpressions.nextFireAfter(expression, zone, at, at);
      if (!at.isBefore(horizon)) break;
      times.add(at);
    }
    return times;
  }

  /** Imports the client's module into a blank page on loopback and asks it for every case. */
  private static List<List<Instant>> clientTimes(String cases) throws Exception {
    String module = resource("web/lib/cron.js");
    try (MockWebServer server = new MockWebServer()) {
      server.setDispatcher(
          new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
              return "/cron.js".equals(request.getPath())
                  ? new MockResponse().setHeader("Content-Type", "text/javascript").setBody(module)
                  : new MockResponse()
                      .setHeader("Content-Type", "text/html")
                      .setBody("<!doctype html><title>cron</title>");
            }
          });
      server.start();
      String base = "http://127.0.0.1:" + server.getPort();
      try (Browser browser = new Browser(base)) {
        browser.driver.get(base + "/");
        Object answer =
            browser.driver.executeAsyncScript(
                "const [cases, count, done] = arguments;"
                    + "import('/cron.js')"
                    + ".then((cron) => done(JSON.stringify(JSON.parse(cases).map((c) =>"
                    + "  cron.nextTimes(c.expression, count, new Date(c.from), c.zone)"
                    + "    .map((d) => d.toISOString())))))"
                    + ".catch((e) => done('failed: ' + e));",
                cases,
                COUNT);
        String json = String.valueOf(answer);
        if (json.startsWith("failed: ")) throw new AssertionError(json);
        List<List<Instant>> all = new ArrayList<>();
        for (JsonNode times : new ObjectMapper().readTree(json)) {
          List<Instant> one = new ArrayList<>();
          times.forEach(t -> one.add(Instant.parse(t.asText())));
          all.add(one);
        }
        return all;
      }
    }
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = CronClientTest.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) throw new IOException("not on the class path: " + name);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
