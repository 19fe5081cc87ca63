package io.periscope.bench;

import io.periscope.llm.ModelCallMeter;
import io.periscope.run.Pipeline;
import io.periscope.testing.TestWatches;
import io.periscope.watch.RunRecord;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import io.periscope.watch.WatchSource;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * The CPU of a nothing-new run, in one process: {@code --watches} (20) watches, each on a feed of
 * its own that never changes (20 dated items with HTML descriptions, no ETag or Last-Modified, as
 * most feeds are served), run by their entities on the H2 file journal as the service runs by
 * default, through the real pipeline and feed collector; the owner's trust rules read from their
 * entity as the service reads them. After {@code --warm} (300) rounds of a run of every watch, the
 * process's CPU over {@code --rounds} (500) rounds, per run, and the requests per run. Nothing
 * judged: no model is configured, and none is asked. Run it against two builds one after the other,
 * alternating (docs/performance.md, "CPU per run"):
 *
 * <pre>
 * java -cp target/test-classes:target/classes:$(cat target/bench.classpath) \
 *   io.periscope.bench.NothingNewRuns --watches 20 --rounds 500
 * </pre>
 */
public final class NothingNewRuns {
  private NothingNewRuns() {}

  public static void main(String[] args) throws Exception {
    int watches = InProcessRuns.option(args, "--watches", 20);
    int warm = InProcessRuns.option(args, "--warm", 300);
    int rounds = InProcessRuns.option(args, "--rounds", 500);
    MockWebServer feeds = new MockWebServer();
    String body = feed();
    feeds.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            return new MockResponse()
                .setHeader("Content-Type", "application/rss+xml")
                .setBody(body);
          }
        });
    feeds.start();
    try (InProcessRuns bench =
        new InProcessRuns("periscope-nothing-new", InProcessRuns.counting(args, Map.of()))) {
      // no model: a nothing-new run asks none
      Pipeline pipeline =
          bench.pipeline(
              null, null, null, ModelCallMeter.UNMETERED, (accountId, watchId) -> used -> {});
      List<Watch> quiet = new ArrayList<>();
      for (int i = 0; i < watches; i++) {
        String url = "http://localhost:" + feeds.getPort() + "/feed/" + i;
        quiet.add(
            TestWatches.onSources(
                "bench", "quiet-" + i, new WatchSource(WatchSource.RSS, url, null, null)));
      }
      List<ActorRef<WatchEntity.Command>> refs = bench.create(quiet, pipeline);
      Set<String> nothingNew = Set.of(RunRecord.NOTHING_NEW);
      // the first run sets the feed's items aside: nothing-new from then on
      bench.round(refs, nothingNew);
      for (int i = 0; i < warm; i++) bench.round(refs, nothingNew);
      long requests = feeds.getRequestCount();
      AutoCloseable recording = InProcessRuns.record(args);
      Map<String, Long> counted = DispatcherCounts.snapshot();
      InProcessRuns.Cpu cpu = new InProcessRuns.Cpu(List.of("MockWebServer"));
      long wall = System.nanoTime();
      for (int i = 0; i < rounds; i++) bench.round(refs, nothingNew);
      long nanos = cpu.nanos();
      String jitAndGc = cpu.jitAndGc(watches * rounds);
      wall = System.nanoTime() - wall;
      recording.close();
      requests = feeds.getRequestCount() - requests;
      int runs = watches * rounds;
      System.out.println(
          InProcessRuns.format(
              "nothing-new runs=%d cpu-ms-per-run=%.3f wall-ms-per-round=%.2f requests-per-run=%.2f"
                  + " load-average=%.2f %s",
              runs,
              nanos / 1e6 / runs,
              wall / 1e6 / rounds,
              requests / (double) runs,
              InProcessRuns.Cpu.loadAverage(),
              jitAndGc));
      if (InProcessRuns.counts(args))
        System.out.print(DispatcherCounts.perRun(counted, watches * rounds));
    } finally {
      feeds.shutdown();
    }
  }

  /** 20 dated items with HTML descriptions, newest first, published a year ago and before. */
  private static String feed() {
    StringBuilder rss =
        new StringBuilder(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss version=\"2.0\""
                + " xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><channel><title>News</title>"
                + "<link>https://example.org/</link><description>d</description>");
    ZonedDateTime at = ZonedDateTime.now(ZoneOffset.UTC).minusDays(365);
    for (int i = 0; i < 20; i++) {
      rss.append("<item><title>Item ")
          .append(i)
          .append(" of the news</title><link>https://example.org/news/")
          .append(i)
          .append("</link><guid isPermaLink=\"false\">item-")
          .append(i)
          .append("</guid><pubDate>")
          .append(DateTimeFormatter.RFC_1123_DATE_TIME.format(at.minusHours(i)))
          .append("</pubDate><dc:creator>Someone</dc:creator><description><![CDATA[<p>The")
          .append(" <strong>news</strong> of item ")
          .append(i)
          .append(", with a <a href=\"https://example.org/x\">link</a> and more words to read.")
          .append("</p>]]></description></item>");
    }
    return rss.append("</channel></rss>").toString();
  }
}
