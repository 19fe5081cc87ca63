package io.periscope.bench;

import io.periscope.entity.Asks;
import io.periscope.llm.ModelCallMeter;
import io.periscope.net.SafeHttp;
import io.periscope.notify.AdminAlerts;
import io.periscope.notify.RepeatedAlerts;
import io.periscope.persistence.JournalSchema;
import io.periscope.run.Pipeline;
import io.periscope.runtime.LocalEntities;
import io.periscope.source.ArticleExtractor;
import io.periscope.source.CollectionBudget;
import io.periscope.source.CollectionLimits;
import io.periscope.source.FeedCollector;
import io.periscope.source.PageCollector;
import io.periscope.testing.LoggedAlerts;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import io.periscope.trust.TrustRules;
import io.periscope.trust.TrustRulesEntity;
import io.periscope.watch.RunRecord;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import io.periscope.watch.WatchSource;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;

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
    int watches = option(args, "--watches", 20);
    int warm = option(args, "--warm", 300);
    int rounds = option(args, "--rounds", 500);
    Path dataDir = Files.createTempDirectory("periscope-nothing-new");
    ActorTestKit testKit = ActorTestKit.create(TestJournals.embedded(dataDir));
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
    try {
      JournalSchema.create(testKit.system());
      LocalEntities entities = new LocalEntities(testKit.system());
      Asks asks = new Asks(testKit.system(), Duration.ofSeconds(30));
      SafeHttp userUrls = new SafeHttp(true);
      CollectionBudget budget = new CollectionBudget(CollectionLimits.DEFAULTS);
      AdminAlerts admin = LoggedAlerts.create();
      Pipeline pipeline =
          new Pipeline(
              new FeedCollector(userUrls, budget),
              new PageCollector(userUrls, budget, Optional.empty()),
              Optional.empty(),
              new ArticleExtractor(userUrls, budget),
              null, // no model: a nothing-new run asks none
              null,
              null,
              admin,
              new RepeatedAlerts(admin, Clock.systemUTC(), RepeatedAlerts.REPEAT_EVERY),
              accountId ->
                  asks.<TrustRulesEntity.Command, TrustRulesEntity.Rules>ask(
                          entities.trustRules(accountId), TrustRulesEntity.GetRules::new)
                      .thenApply(r -> TrustRules.of(r.rules())),
              ModelCallMeter.UNMETERED,
              (accountId, watchId) -> used -> {},
              Clock.systemUTC());
      List<ActorRef<WatchEntity.Command>> refs = new ArrayList<>();
      for (int i = 0; i < watches; i++) {
        String url = "http://localhost:" + feeds.getPort() + "/feed/" + i;
        Watch watch =
            TestWatches.onSources(
                "bench", "quiet-" + i, new WatchSource(WatchSource.RSS, url, null, null));
        ActorRef<WatchEntity.Command> ref =
            testKit.spawn(
                WatchEntity.create(
                    WatchEntity.entityId("bench", watch.id()), pipeline, Clock.systemUTC()));
        TestProbe<StatusReply<Watch>> created = testKit.createTestProbe();
        ref.tell(new WatchEntity.Create(watch, null, null, created.ref()));
        if (!created.receiveMessage(Duration.ofSeconds(30)).isSuccess())
          throw new IllegalStateException("not created");
        refs.add(ref);
      }
      TestProbe<StatusReply<RunRecord>> ran = testKit.createTestProbe();
      round(refs, ran); // the first run sets the feed's items aside: nothing-new from then on
      for (int i = 0; i < warm; i++) round(refs, ran);
      var os =
          (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      long requests = feeds.getRequestCount();
      long cpu = os.getProcessCpuTime();
      long wall = System.nanoTime();
      for (int i = 0; i < rounds; i++) round(refs, ran);
      cpu = os.getProcessCpuTime() - cpu;
      wall = System.nanoTime() - wall;
      requests = feeds.getRequestCount() - requests;
      int runs = watches * rounds;
      System.out.printf(
          Locale.ROOT,
          "nothing-new runs=%d cpu-ms-per-run=%.3f wall-ms-per-round=%.2f requests-per-run=%.2f"
              + " load-average=%.2f%n",
          runs,
          cpu / 1e6 / runs,
          wall / 1e6 / rounds,
          requests / (double) runs,
          os.getSystemLoadAverage());
    } finally {
      feeds.shutdown();
      testKit.shutdownTestKit();
    }
  }

  /** A run of every watch, each answered nothing-new. */
  private static void round(
      List<ActorRef<WatchEntity.Command>> refs, TestProbe<StatusReply<RunRecord>> ran) {
    for (ActorRef<WatchEntity.Command> ref : refs)
      ref.tell(new WatchEntity.Run(RunRecord.TRIGGER_MANUAL, ran.ref()));
    for (int i = 0; i < refs.size(); i++) {
      RunRecord r = ran.receiveMessage(Duration.ofSeconds(30)).getValue();
      if (!r.outcome().equals(RunRecord.NOTHING_NEW))
        throw new IllegalStateException("not nothing-new: " + r.outcome());
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

  private static int option(String[] args, String name, int otherwise) {
    for (int i = 0; i + 1 < args.length; i++)
      if (args[i].equals(name)) return Integer.parseInt(args[i + 1]);
    return otherwise;
  }
}
