package io.periscope.bench;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.periscope.channels.WebhookSecretStore;
import io.periscope.keys.KeyCipher;
import io.periscope.keys.KeyPoolEntity;
import io.periscope.keys.KeyPools;
import io.periscope.llm.ModelCallMeter;
import io.periscope.llm.ModelChoice;
import io.periscope.llm.ModelConfigs;
import io.periscope.llm.ModelConfiguration;
import io.periscope.llm.ModelMeters;
import io.periscope.llm.PooledModel;
import io.periscope.llm.UsageLedger;
import io.periscope.net.UpstreamClients;
import io.periscope.notify.Notifier;
import io.periscope.notify.NotifyMeters;
import io.periscope.persistence.JournalReads;
import io.periscope.run.Pipeline;
import io.periscope.testing.FakeJudge;
import io.periscope.watch.RunRecord;
import io.periscope.watch.Watch;
import io.periscope.watch.WatchEntity;
import io.periscope.watch.WatchSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import okhttp3.OkHttpClient;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * The CPU of a judged and alerted run, in one process ({@link InProcessRuns}): {@code --watches}
 * (20) watches, each on a feed of its own that gains one item a request (its 20 newest served),
 * whose link is a small page on loopback; the model, an OpenAI-compatible fake on loopback that
 * answers at once, finds the condition met citing the new item; the alert goes to a webhook on
 * loopback, signed with its endpoint's own secret (kept in its entity), as every user's webhook is.
 * The model is chosen as the service chooses it (the operator's configuration, read from its
 * entity; the key from its pool) and each call's usage is written to the usage ledger; the
 * account's quota is not asked (it needs an account). After {@code --warm} (100) rounds of a run of
 * every watch, each waiting for its alerts, the CPU over {@code --rounds} (200) rounds, per run,
 * the fakes' threads left out:
 *
 * <pre>
 * java -cp target/test-classes:target/classes:$(cat target/bench.classpath) \
 *   io.periscope.bench.JudgedRuns --watches 20 --rounds 200
 * </pre>
 */
public final class JudgedRuns {
  private static final String OWNER = "bench";
  private static final Pattern CITED = Pattern.compile("http://[^\\s\"]+/page/\\d+/\\d+");

  private JudgedRuns() {}

  public static void main(String[] args) throws Exception {
    int watches = InProcessRuns.option(args, "--watches", 20);
    int warm = InProcessRuns.option(args, "--warm", 100);
    int rounds = InProcessRuns.option(args, "--rounds", 200);
    MockWebServer site = new MockWebServer();
    AtomicInteger[] served = new AtomicInteger[watches];
    for (int i = 0; i < watches; i++) served[i] = new AtomicInteger();
    site.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            String[] path = request.getPath().split("/");
            if (path[1].equals("feed"))
              return new MockResponse()
                  .setHeader("Content-Type", "application/rss+xml")
                  .setBody(
                      feed(
                          site.url("/page/" + path[2] + "/").toString(),
                          served[Integer.parseInt(path[2])].getAndIncrement()));
            return new MockResponse()
                .setHeader("Content-Type", "text/html; charset=utf-8")
                .setBody(page(request.getPath()));
          }
        });
    site.start();
    MockWebServer hooks = new MockWebServer();
    hooks.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            return new MockResponse().setResponseCode(204);
          }
        });
    hooks.start();
    FakeJudge judge =
        new FakeJudge(
            q -> {
              Matcher cited = CITED.matcher(q.prompt());
              return FakeJudge.verdict(
                  true, cited.find() ? List.of(cited.group()) : List.of(), 900, 0, 60);
            });
    try (InProcessRuns bench =
        new InProcessRuns(
            "periscope-judged",
            InProcessRuns.counting(
                args,
                Map.of("periscope.rate-limits.notifications-per-owner-per-hour", 100_000_000)))) {
      Pipeline pipeline = pipeline(bench, judge.baseUrl());
      List<Watch> fresh = new ArrayList<>();
      for (int i = 0; i < watches; i++) {
        Watch on =
            io.periscope.testing.TestWatches.onSources(
                OWNER,
                "fresh-" + i,
                new WatchSource(WatchSource.RSS, site.url("/feed/" + i).toString(), null, null));
        fresh.add(
            new Watch(
                on.id(),
                on.owner(),
                on.name(),
                on.sources(),
                on.schedule(),
                on.condition(),
                List.of("webhook:" + hooks.url("/hook/" + i)),
                on.threshold(),
                on.weakThreshold(),
                true,
                on.timeZone()));
      }
      List<ActorRef<WatchEntity.Command>> refs = bench.create(fresh, pipeline);
      Set<String> alerted = Set.of(RunRecord.ALERT);
      for (int i = 0; i < warm + 1; i++) round(bench, refs, alerted, hooks);
      long calls = judge.questions().size();
      long requests = site.getRequestCount();
      AutoCloseable recording = InProcessRuns.record(args);
      Map<String, Long> counted = DispatcherCounts.snapshot();
      InProcessRuns.Cpu cpu = new InProcessRuns.Cpu(List.of("MockWebServer"));
      long wall = System.nanoTime();
      for (int i = 0; i < rounds; i++) round(bench, refs, alerted, hooks);
      long nanos = cpu.nanos();
      String jitAndGc = cpu.jitAndGc(watches * rounds);
      wall = System.nanoTime() - wall;
      recording.close();
      int runs = watches * rounds;
      System.out.println(
          InProcessRuns.format(
              "judged runs=%d cpu-ms-per-run=%.3f wall-ms-per-round=%.2f model-calls-per-run=%.2f"
                  + " site-requests-per-run=%.2f load-average=%.2f %s",
              runs,
              nanos / 1e6 / runs,
              wall / 1e6 / rounds,
              (judge.questions().size() - calls) / (double) runs,
              (site.getRequestCount() - requests) / (double) runs,
              InProcessRuns.Cpu.loadAverage(),
              jitAndGc));
      if (InProcessRuns.counts(args))
        System.out.print(DispatcherCounts.perRun(counted, watches * rounds));
    } finally {
      judge.close();
      hooks.shutdown();
      site.shutdown();
    }
  }

  /** A round whose runs all alerted, once their alerts have reached the webhook. */
  private static void round(
      InProcessRuns bench,
      List<ActorRef<WatchEntity.Command>> refs,
      Set<String> outcomes,
      MockWebServer hooks)
      throws InterruptedException {
    bench.round(refs, outcomes);
    for (int i = 0; i < refs.size(); i++)
      if (hooks.takeRequest(30, TimeUnit.SECONDS) == null)
        throw new IllegalStateException("an alert did not arrive");
  }

  /** The pipeline as the service builds it, its model the fake at {@code modelBaseUrl}. */
  private static Pipeline pipeline(InProcessRuns bench, String modelBaseUrl) throws Exception {
    OkHttpClient trusted = UpstreamClients.trusted();
    KeyCipher cipher = new KeyCipher("judged-runs-bench-secret-of-32-bytes-or-more");
    KeyPools keyPools =
        new KeyPools(bench.entities, bench.asks, cipher, bench.admin, Clock.systemUTC());
    keyPools
        .seed(KeyPoolEntity.MODEL, List.of("sk-judged-runs-0001"))
        .toCompletableFuture()
        .get(30, TimeUnit.SECONDS);
    ModelConfigs models =
        new ModelConfigs(
            bench.entities,
            bench.asks,
            ModelConfiguration.both(ModelChoice.withDefaults("openai", modelBaseUrl, "bench")),
            UpstreamClients.keyed(trusted),
            Clock.systemUTC());
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Notifier notifier =
        Notifier.create(
            bench.config(),
            trusted,
            bench.userUrls.guardedClient(),
            bench.testKit.system().executionContext(),
            Optional.empty(),
            new WebhookSecretStore(
                bench.entities,
                bench.asks,
                cipher,
                new JournalReads(bench.testKit.system()),
                Clock.systemUTC()),
            (accountId, channels) -> CompletableFuture.completedFuture(Map.of()),
            bench.admin,
            new NotifyMeters(registry),
            UnaryOperator.identity());
    return bench.pipeline(
        new PooledModel(models.verdicts(), keyPools, new ModelMeters(registry)),
        keyPools,
        notifier,
        ModelCallMeter.UNMETERED,
        new UsageLedger(bench.entities::usage, bench.asks, Clock.systemUTC()));
  }

  /**
   * Item {@code k}'s date: a minute after item {@code k-1}'s, and the same at every request, as a
   * real feed's item keeps its date (an item whose date moved would be a changed entry, read
   * again).
   */
  private static final Instant FIRST_ITEM = Instant.now().minus(Duration.ofDays(3));

  /**
   * The feed at its {@code n}th request: items {@code n-19} to {@code n}, newest first, a minute
   * apart, each linking to its page under {@code pages}.
   */
  private static String feed(String pages, int n) {
    StringBuilder rss =
        new StringBuilder(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss version=\"2.0\"><channel>"
                + "<title>News</title><link>https://example.org/</link><description>d</description>");
    for (int k = n; k >= Math.max(0, n - 19); k--) {
      rss.append("<item><title>Acme news number ")
          .append(k)
          .append("</title><link>")
          .append(pages)
          .append(k)
          .append("</link><guid isPermaLink=\"false\">item-")
          .append(k)
          .append("</guid><pubDate>")
          .append(
              DateTimeFormatter.RFC_1123_DATE_TIME.format(
                  FIRST_ITEM.plusSeconds(60L * k).atOffset(ZoneOffset.UTC)))
          .append("</pubDate><description><![CDATA[<p>Acme <strong>news</strong> number ")
          .append(k)
          .append(", with a <a href=\"https://example.org/x\">link</a> and words to read.")
          .append("</p>]]></description></item>");
    }
    return rss.append("</channel></rss>").toString();
  }

  /** A small article page. */
  private static String page(String path) {
    return "<!doctype html><html><head><title>Acme news</title></head><body><nav>Home | News</nav>"
        + "<article><h1>Acme news at "
        + path
        + "</h1><p>Acme announces a launch date for its rocket: the launch is set for next month,"
        + " the company said in a statement on its site.</p><p>More words follow, as articles have"
        + " them, about the rocket and its payload.</p></article><footer>© Acme</footer></body>"
        + "</html>";
  }
}
