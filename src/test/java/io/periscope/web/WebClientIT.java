package io.periscope.web;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import io.periscope.testing.ApiClient;
import io.periscope.testing.FlakyWebhookReceiver;
import io.periscope.testing.Mailbox;
import io.periscope.testing.NeedsBrowser;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import org.junit.AfterClass;
import org.junit.Before;
import org.junit.BeforeClass;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

/**
 * A person's journeys through the web client, in the distribution's Chromium, against the jar as an
 * operator starts it, with loopback fakes of every upstream (WebFakes) and a real SMTP server.
 * axe-core checks every page it opens; the main pages are photographed (docs/web.md).
 */
@Category(NeedsBrowser.class)
public class WebClientIT extends BrowserJourneys {
  static final String ADMIN_EMAIL = "root@example.org";
  static final String PASSWORD = "a-long-web-test-passphrase";

  static Mailbox mailbox;
  static final HttpClient http = HttpClient.newHttpClient();

  @BeforeClass
  public static void start() throws Exception {
    mailbox = new Mailbox();
    startService(
        "periscope-web",
        "web-client-test-secret-of-32-bytes",
        env -> {
          env.put("SMTP_HOST", "127.0.0.1");
          env.put(
              "SMTP_PORT", Integer.toString(mailbox.smtpConfig().getInt("periscope.smtp.port")));
          env.put("SMTP_FROM", "periscope@example.org");
          env.put("REGISTRATION", "open");
          // every sign-in of these journeys comes from one address: more than /auth's 20 a
          // minute, and a delivery that failed is tried again within seconds, not the default 30 s
          env.put(
              "JAVA_TOOL_OPTIONS",
              "-Dperiscope.rate-limits.auth-per-ip-per-minute=1000"
                  + " -Dperiscope.notify.retry.first-backoff=2s");
        });
    assertEquals(
        0,
        service.command(
            List.of("users", "create", "--id", "root", "--email", ADMIN_EMAIL, "--role", "admin"),
            PASSWORD + "\n"));
    adminToken = api.login(service.uri("/"), ADMIN_EMAIL, PASSWORD);
  }

  @AfterClass
  public static void stop() throws Exception {
    try {
      stopService();
    } finally {
      if (mailbox != null) mailbox.close();
    }
  }

  @Before
  public void signedOut() {
    browser.width(1280);
    browser.open("/sign-in");
    browser.driver.executeScript("localStorage.clear(); sessionStorage.clear();");
    browser.consoleErrors(); // what earlier tests left in the log (an expected 401) is read here
  }

  /** An account made by the administrator; answers its token. */
  static String user(String id) throws Exception {
    makeAccount(id, PASSWORD);
    return api.login(service.uri("/"), id + "@example.org", PASSWORD);
  }

  static void watch(String token, String id, String name) throws Exception {
    watch(token, id, name, "telegram");
  }

  static void watch(String token, String id, String name, String channel) throws Exception {
    // official: one domain is enough for a confirmed alert
    watch(
        token,
        id,
        name,
        channel,
        Map.of("type", "rss", "value", fakes.feedUrl(), "trust", "official"));
  }

  static void watch(
      String token, String id, String name, String channel, Map<String, String> source)
      throws Exception {
    HttpResponse<String> r =
        api.send(
            "POST",
            service.uri("/watches"),
            token,
            Json.text(
                Map.of(
                    "id",
                    id,
                    "name",
                    name,
                    "sources",
                    List.of(source),
                    "schedule",
                    "0 */6 * * *",
                    "condition",
                    "Acme announces the date of its first rocket launch",
                    "channels",
                    List.of(channel),
                    "threshold",
                    0.8)));
    assertEquals(r.body(), 201, r.statusCode());
  }

  void signIn(String email) {
    browser.heading("Sign in");
    browser.type("Email", email);
    browser.type("Password", PASSWORD);
    browser.button("Sign in").click();
  }

  void noConsoleErrors() {
    List<String> errors = browser.consoleErrors();
    assertTrue(errors.toString(), errors.isEmpty());
  }

  static HttpResponse<byte[]> get(String path, Map<String, String> headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(service.uri(path));
    headers.forEach(b::header);
    return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  @Test
  public void theServiceServesTheClientAndKeepsItsApiAnswers() throws Exception {
    Map<String, String> html = Map.of("Accept", "text/html,application/xhtml+xml,*/*;q=0.8");
    HttpResponse<byte[]> index = get("/", Map.of());
    assertEquals(200, index.statusCode());
    assertEquals("no-cache", index.headers().firstValue("Cache-Control").orElseThrow());
    String csp = index.headers().firstValue("Content-Security-Policy").orElseThrow();
    for (String rule :
        List.of(
            "default-src 'none'",
            "connect-src 'self'",
            "frame-ancestors 'none'",
            "script-src 'self' 'sha256-")) assertTrue(csp, csp.contains(rule));
    assertFalse(csp, csp.contains("unsafe"));
    assertEquals("nosniff", index.headers().firstValue("X-Content-Type-Options").orElseThrow());
    assertEquals("no-referrer", index.headers().firstValue("Referrer-Policy").orElseThrow());

    // a deep link opens the client; the interface's paths keep their JSON answers
    HttpResponse<byte[]> deep = get("/watch/acme/edit", html);
    assertEquals(200, deep.statusCode());
    assertTrue(new String(deep.body()).contains("<div id=\"app\">"));
    for (String path : List.of("/watches", "/admin/keys", "/no-such-route")) {
      HttpResponse<byte[]> apiPath = get(path, path.equals("/no-such-route") ? Map.of() : html);
      assertEquals(path, 401, apiPath.statusCode());
      assertTrue(
          apiPath
              .headers()
              .firstValue("Content-Type")
              .orElseThrow()
              .startsWith("application/json"));
    }

    // every asset the page names is cached for good, and the whole client is under 300 KB gzipped
    String page = new String(index.body());
    Matcher assets = Pattern.compile("/assets/[0-9a-f]{16}/[A-Za-z0-9/._-]+").matcher(page);
    assertTrue(page, assets.find());
    String prefix = assets.group().substring(0, assets.group().indexOf('/', 8) + 1);
    long gzipped = gzipSize(index.body());
    for (String file : clientFiles()) {
      HttpResponse<byte[]> asset = get(prefix + file, Map.of());
      assertEquals(file, 200, asset.statusCode());
      assertEquals(
          "public, max-age=31536000, immutable",
          asset.headers().firstValue("Cache-Control").orElseThrow());
      gzipped += gzipSize(asset.body());
    }
    assertTrue("the client is " + gzipped + " bytes gzipped", gzipped < 300_000);
    assertEquals(404, get("/assets/0000000000000000/app.js", Map.of()).statusCode());
  }

  /** Every file of src/main/web and the two Preact modules, as served. */
  static List<String> clientFiles() throws Exception {
    Path root = Path.of("src/main/web");
    try (var paths = Files.walk(root)) {
      List<String> files =
          new java.util.ArrayList<>(
              paths
                  .filter(Files::isRegularFile)
                  .map(p -> root.relativize(p).toString().replace('\\', '/'))
                  .toList());
      files.addAll(List.of("vendor/preact.js", "vendor/hooks.js"));
      return files;
    }
  }

  static long gzipSize(byte[] bytes) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(bytes);
    }
    return out.size();
  }

  @Test
  public void aPersonSignsInSeesTheirWatchesAndRunsOneNow() throws Exception {
    String token = user("wendy");
    watch(token, "acme-launch", "Acme launch");
    watch(token, "beta-release", "Beta release");

    browser.open("/");
    browser.waitUntil(d -> browser.path().equals("/sign-in"));
    browser.assertAccessible("sign-in");
    browser.screenshot("sign-in");
    signIn("wendy@example.org");

    browser.heading("Watches");
    browser.waitFor(By.linkText("Acme launch"));
    String page = browser.driver.findElement(By.tagName("main")).getText();
    assertTrue(page, page.contains("every 6 hours"));
    assertTrue(page, page.contains("Not run yet"));
    browser.assertAccessible("watch list");

    browser.type("Search watches", "beta");
    browser.waitUntil(d -> d.findElements(By.linkText("Acme launch")).isEmpty());
    browser.type("Search watches", "");
    browser.waitFor(By.linkText("Acme launch"));

    WebElement run =
        browser.waitFor(By.xpath("//button[normalize-space(.)='Run now: Acme launch']"));
    run.click();
    browser.waitFor(
        By.xpath("//li[.//a[.='Acme launch']]//span[contains(@class,'outcome-alert')]"));
    browser.button("Run all").click();
    String report = browser.waitFor(By.cssSelector(".report")).getText();
    assertTrue(report, report.contains("Run all finished"));
    assertTrue(report, report.contains("2 watches: 2 ran"));
    browser.screenshot("watch-list");
    // the switch shows the change at once and keeps it once the service has taken it
    WebElement enabled =
        browser.driver.findElement(By.xpath("//li[.//a[.='Acme launch']]//input[@role='switch']"));
    enabled.click();
    assertFalse("no snapping back while the service answers", enabled.isSelected());
    browser.waitUntil(d -> d.findElements(By.xpath("//span[.='Saving…']")).isEmpty());
    assertFalse(enabled.isSelected());
    assertFalse(
        ApiClient.json(api.send("GET", service.uri("/watches/acme-launch"), token, null))
            .get("enabled")
            .asBoolean());
    browser.width(375);
    browser.assertAccessible("watch list at 375 px");
    browser.screenshot("watch-list-375");
    noConsoleErrors();
  }

  @Test
  public void anEndedSessionGoesBackToSignInThenToWhereThePersonWas() throws Exception {
    String token = user("sam");
    watch(token, "sams-watch", "Sam watch");
    browser.open("/");
    // with the keyboard alone: the first field, the next, then Enter
    browser.heading("Sign in");
    browser.field("Email").sendKeys("sam@example.org", Keys.TAB, PASSWORD, Keys.ENTER);
    browser.heading("Watches");
    browser.waitFor(By.linkText("Sam watch"));
    // the first screen again, assets cached: a usable list in under a second
    browser.driver.navigate().refresh();
    browser.waitFor(By.linkText("Sam watch"));
    long shown = ((Number) browser.driver.executeScript("return performance.now()")).longValue();
    assertTrue("the list took " + shown + " ms", shown < 1000);

    // a token the service no longer takes (signed with another secret), still unexpired here
    browser.driver.executeScript(
        "localStorage.setItem('periscope.session', 'eyJhbGciOiJIUzI1NiJ9.'"
            + " + btoa(JSON.stringify({sub: 'sam', role: 'user', exp: 4102444800})) + '.forged')");
    browser.open("/watch/sams-watch");
    browser.heading("Sign in");
    String notice = browser.driver.findElement(By.tagName("main")).getText();
    assertTrue(notice, notice.contains("Your session has ended"));
    signIn("sam@example.org");
    browser.heading("Sam watch");
    assertEquals("/watch/sams-watch", browser.path());
  }

  @Test
  public void aPersonReadsAWatchsVersionsAndRestoresOne() throws Exception {
    String token = user("viktor");
    watch(token, "moon", "Moon launch");
    // a change of the condition, then a pause, as the editor would write them
    String first = api.send("GET", service.uri("/watches/moon"), token, null).body();
    var changed = (com.fasterxml.jackson.databind.node.ObjectNode) Json.MAPPER.readTree(first);
    changed.put("condition", "Acme <b>moves</b> its launch date");
    assertEquals(
        200, api.send("PUT", service.uri("/watches/moon"), token, changed.toString()).statusCode());
    changed.put("enabled", false);
    assertEquals(
        200, api.send("PUT", service.uri("/watches/moon"), token, changed.toString()).statusCode());

    browser.open("/watch/moon");
    signIn("viktor@example.org");
    browser.heading("Moon launch");
    browser.link("Versions").click();
    browser.heading("Versions");
    browser.waitFor(By.xpath("//strong[.='Version 3: Paused']"));
    browser.waitFor(By.xpath("//strong[.='Version 2: Changed']"));
    browser.waitFor(By.xpath("//strong[.='Version 1: Created']"));
    browser.waitFor(By.xpath("//li[@data-version='2']//button[.='Differences']")).click();
    WebElement after =
        browser.waitFor(By.xpath("//li[@data-version='2']//tr[th='condition']/td[2]"));
    assertEquals(
        "what the person wrote is text", "Acme <b>moves</b> its launch date", after.getText());
    assertEquals(
        "Acme announces the date of its first rocket launch",
        browser
            .driver
            .findElement(By.xpath("//li[@data-version='2']//tr[th='condition']/td[1]"))
            .getText());
    browser.assertAccessible("versions");
    browser.screenshot("watch-versions");

    browser.waitFor(By.cssSelector("button[aria-label='Restore version 1']")).click();
    browser.waitFor(By.xpath("//strong[.='Version 4: Restored']"));
    assertTrue(
        api.send("GET", service.uri("/watches/moon"), token, null)
            .body()
            .contains("Acme announces the date of its first rocket launch"));
    browser.link("Back to the watch").click();
    browser.heading("Moon launch");
    noConsoleErrors();
  }

  @Test
  public void aPersonKeepsTrustRulesAndReadsTheirStatistics() throws Exception {
    user("tess");
    browser.open("/trust");
    signIn("tess@example.org");
    browser.heading("Trust rules");
    browser.waitFor(By.xpath("//p[.='No trust rules yet.']"));
    browser.type("Domain pattern", "*.example.org");
    new org.openqa.selenium.support.ui.Select(browser.field("Trust tier"))
        .selectByVisibleText("Official");
    browser.button("Add rule").click();
    WebElement tier = browser.field("Tier of *.example.org");
    assertEquals("official", tier.getAttribute("value"));
    new org.openqa.selenium.support.ui.Select(tier).selectByVisibleText("Community");
    browser.waitUntil(
        d -> {
          try {
            return api.send(
                    "GET",
                    service.uri("/trust-rules"),
                    api.login(service.uri("/"), "tess@example.org", PASSWORD),
                    null)
                .body()
                .contains("community");
          } catch (Exception e) {
            return false;
          }
        });
    browser.assertAccessible("trust rules");
    browser.screenshot("trust-rules");
    browser
        .waitFor(By.cssSelector("button[aria-label='Delete the rule for *.example.org']"))
        .click();
    browser.waitFor(By.xpath("//p[.='No trust rules yet.']"));

    browser.link("Statistics").click();
    browser.heading("Collection statistics");
    browser.waitFor(By.xpath("//dt[.='Runs']/following-sibling::dd[1][.='0']"));
    browser.assertAccessible("statistics");
    noConsoleErrors();
  }

  @Test
  public void aPersonWritesAWatchReadsItsRunAsTextAndGivesFeedback() throws Exception {
    user("rita");
    browser.open("/new-watch");
    signIn("rita@example.org");
    browser.heading("New watch");
    browser.assertAccessible("new watch");
    browser.type("Name", "Acme feed");
    assertEquals("acme-feed", browser.field("Identifier").getAttribute("value"));
    browser.type("Condition", "Acme announces the date of its first rocket launch");
    new org.openqa.selenium.support.ui.Select(browser.field("Type"))
        .selectByVisibleText("RSS or Atom feed");
    browser.type("Feed URL", fakes.feedUrl());
    browser.driver.findElement(By.xpath("//summary[.='Trust and recency']")).click();
    new org.openqa.selenium.support.ui.Select(browser.field("Trust"))
        .selectByVisibleText("Official");
    browser.type("Time zone", "Europe/Berlin");
    browser.type("Cron expression", "0 7 * * 1-5");
    String schedule = browser.driver.findElement(By.tagName("form")).getText();
    assertTrue(schedule, schedule.contains("on weekdays at 07:00 Europe/Berlin"));
    assertTrue(schedule, schedule.contains("Next runs:"));
    browser.type("Cron expression", "61 * * * *");
    browser.button("Add a channel").click();
    kind(1, "Webhook (a JSON POST)");
    browser.type("Webhook URL", "hooks.example.org/in");
    browser.button("Save watch").click();
    // the service's issues next to the fields they name
    browser.waitFor(
        By.xpath(
            "//div[contains(@class,'invalid')][label[.='Cron expression']]//ul[@class='issues']"));
    browser.waitFor(
        By.xpath("//div[contains(@class,'invalid')][label[.='Webhook URL']]//ul[@class='issues']"));
    browser.assertAccessible("new watch with issues");
    browser.type("Cron expression", "0 7 * * 1-5");
    kind(1, "Telegram: the operator’s chat");
    browser.button("Save watch").click();

    browser.heading("Acme feed");
    assertEquals("/watch/acme-feed", browser.path());
    String page = browser.driver.findElement(By.tagName("body")).getText();
    assertTrue("saved in its time zone: " + page, page.contains("at 07:00 Europe/Berlin"));
    browser.button("Run now").click();
    openRun(0);
    WebElement evidence =
        browser.waitFor(
            By.xpath(
                "//li[contains(@class,'run')]//h4[starts-with(.,'Evidence')]/following-sibling::ul//a"));
    assertEquals(
        "the feed's title is text, not markup", WebFakes.HOSTILE_TITLE, evidence.getText());
    String run = browser.waitFor(By.cssSelector("li.run")).getText();
    assertTrue(run, run.contains("The model’s reasoning"));
    assertTrue(run, run.contains(WebFakes.HOSTILE_TITLE));
    assertTrue(run, run.contains("telegram: delivered"));
    assertEquals(
        0L, browser.driver.executeScript("return document.querySelectorAll('main img').length"));
    browser.assertAccessible("watch page with a run");
    browser.screenshot("watch-runs");

    browser.button("Give feedback").click();
    browser.driver.findElement(By.xpath("//label[span[.='Wrong']]/input")).click();
    browser.type("Note (optional)", "The date was a rumour");
    browser.button("Save feedback").click();
    browser.waitFor(By.xpath("//p[starts-with(.,'You said: Wrong — “The date was a rumour”')]"));
    browser.driver.navigate().refresh();
    openRun(0);
    browser.waitFor(By.xpath("//p[starts-with(.,'You said: Wrong — “The date was a rumour”')]"));

    browser.link("Edit").click();
    browser.heading("Edit Acme feed");
    browser.assertAccessible("edit watch");
    browser.screenshot("watch-editor");
    // quiet hours and a digest: a bad time is refused next to its field, a good one is kept
    browser
        .driver
        .findElement(By.xpath("//summary[starts-with(.,'Advanced: weak alerts')]"))
        .click();
    browser
        .driver
        .findElement(
            By.xpath("//label[span[starts-with(.,'Hold alerts during quiet hours')]]/input"))
        .click();
    browser.type("Quiet from", "10pm");
    new org.openqa.selenium.support.ui.Select(browser.field("Digest")).selectByValue("hourly");
    browser.button("Save watch").click();
    browser.waitFor(
        By.xpath("//div[contains(@class,'invalid')][label[.='Quiet from']]//ul[@class='issues']"));
    browser.type("Quiet from", "22:00");
    browser.button("Save watch").click();
    browser.heading("Acme feed");
    String saved = browser.driver.findElement(By.tagName("body")).getText();
    assertTrue(saved, saved.contains("22:00–07:00"));
    assertTrue(saved, saved.contains("hourly"));
    noConsoleErrors();
  }

  @Test
  public void aPersonReadsRunHistoryAsRowsFiltersItAndKeepsFeedbackAcrossAReload()
      throws Exception {
    String token = user("hilde");
    watch(token, "hilde-acme", "Acme history");
    // one more run than a page holds, so the rest is read at the service's cursor
    for (int i = 0; i < 21; i++)
      assertEquals(
          200, api.send("POST", service.uri("/watches/hilde-acme/run"), token, null).statusCode());
    browser.open("/watch/hilde-acme");
    signIn("hilde@example.org");
    browser.heading("Acme history");
    String state = browser.waitFor(By.cssSelector("p.state-line")).getText();
    assertTrue(state, state.startsWith("Enabled · next run "));
    assertTrue(state, state.contains(" · last alert "));
    By rows = By.cssSelector("ul.runs > li.run");
    browser.waitUntil(d -> d.findElements(rows).size() == 20);
    // one line each: outcome, time with its zone, the summary
    String line = browser.driver.findElements(rows).get(0).getText();
    assertTrue(line, line.startsWith("Alert"));
    assertTrue(line, line.contains("Acme set its launch for 1 March."));
    assertTrue(
        "the time names its zone: " + line,
        Pattern.compile("\\d{1,2}:\\d{2}\\s*(AM|PM)?\\s*(UTC|GMT|[A-Z]{2,5})")
            .matcher(line)
            .find());
    assertTrue(
        "a row is one line, not a card",
        browser.driver.findElements(rows).get(0).getSize().getHeight() < 60);
    browser.button("Older runs").click();
    browser.waitUntil(d -> d.findElements(rows).size() == 21);

    new org.openqa.selenium.support.ui.Select(browser.field("Outcome"))
        .selectByVisibleText("Error");
    browser.waitFor(By.xpath("//p[.='No run matches these filters.']"));
    new org.openqa.selenium.support.ui.Select(browser.field("Outcome"))
        .selectByVisibleText("Alert");
    browser.waitUntil(d -> d.findElements(rows).size() == 21);
    browser.type("Search runs", "no such words");
    browser.waitUntil(d -> d.findElements(rows).isEmpty());
    browser.type("Search runs", "launch for 1 march");
    browser.waitUntil(d -> d.findElements(rows).size() == 21);
    browser.assertAccessible("run history filtered");
    browser.screenshot("run-history");

    openRun(1);
    browser.waitFor(By.xpath("//li[contains(@class,'run')]//h4[.='What was judged']"));
    String details = browser.driver.findElements(rows).get(1).getText();
    for (String part : List.of("Verdict", "Evidence", "What was judged", "Deliveries"))
      assertTrue(part + " in " + details, details.contains(part));
    assertTrue(
        "feedback sits behind a button",
        browser.driver.findElements(By.xpath("//label[span[.='Wrong']]")).isEmpty());
    browser.button("Give feedback").click();
    browser.driver.findElement(By.xpath("//label[span[.='Wrong']]/input")).click();
    browser.type("Note (optional)", "Only a rumour");
    browser.button("Save feedback").click();
    browser.waitFor(By.xpath("//p[starts-with(.,'You said: Wrong — “Only a rumour”')]"));
    browser.assertAccessible("a run opened with its feedback");

    // after a reload the saved feedback fills its form and may be saved again
    browser.driver.navigate().refresh();
    browser.waitUntil(d -> d.findElements(rows).size() == 20);
    assertTrue(
        browser.driver.findElements(rows).get(1).getText(),
        browser.driver.findElements(rows).get(1).getText().contains("Feedback: Wrong"));
    openRun(1);
    browser.waitFor(By.xpath("//p[starts-with(.,'You said: Wrong — “Only a rumour”')]"));
    browser.button("Change feedback").click();
    assertTrue(browser.driver.findElement(By.xpath("//label[span[.='Wrong']]/input")).isSelected());
    assertEquals("Only a rumour", browser.field("Note (optional)").getAttribute("value"));
    assertTrue(browser.button("Save feedback").isEnabled());
    browser.width(375);
    browser.driver.executeScript(
        "arguments[0].scrollIntoView()", browser.driver.findElements(rows).get(1));
    browser.assertAccessible("run history at 375 px");
    browser.screenshot("run-history-375");
    browser.width(1280);

    // a deleted watch's history stays readable at its address
    assertEquals(
        204, api.send("DELETE", service.uri("/watches/hilde-acme"), token, null).statusCode());
    browser.driver.navigate().refresh();
    browser.heading("Deleted watch hilde-acme");
    browser.waitUntil(d -> d.findElements(rows).size() == 20);
    openRun(0);
    assertTrue(
        "a deleted watch takes no feedback",
        browser.driver.findElements(By.xpath("//button[.='Give feedback']")).isEmpty());
    browser.assertAccessible("a deleted watch's history");
    noConsoleErrors();
  }

  @Test
  public void aPersonAddsAChannelByKindAndTestsItBeforeAndAfterSaving() throws Exception {
    try (FlakyWebhookReceiver receiver = new FlakyWebhookReceiver((id, attempt) -> false)) {
      user("carla");
      browser.open("/new-watch");
      signIn("carla@example.org");
      browser.heading("New watch");
      browser.type("Name", "Acme by webhook");
      browser.type("Condition", "Acme announces the date of its first rocket launch");
      new org.openqa.selenium.support.ui.Select(browser.field("Type"))
          .selectByVisibleText("RSS or Atom feed");
      browser.type("Feed URL", fakes.feedUrl());
      browser.button("Add a channel").click();
      List<WebElement> kinds =
          new org.openqa.selenium.support.ui.Select(
                  browser.driver.findElement(By.xpath("//fieldset[legend[.='Channel 1']]//select")))
              .getOptions();
      assertEquals("a choice and the 12 kinds: " + kinds.size(), 13, kinds.size());
      kind(1, "Telegram: another chat");
      String needs = browser.driver.findElement(By.cssSelector("fieldset.channel")).getText();
      assertTrue(needs, needs.contains("Needs an administrator’s allowance"));
      kind(1, "Webhook (a JSON POST)");
      assertEquals(
          "https://hooks.example.org/periscope",
          browser.field("Webhook URL").getAttribute("placeholder"));
      browser.type("Webhook URL", receiver.url());
      // before saving: the channel as written
      browser.button("Send a test to channel 1").click();
      browser.waitFor(By.xpath("//ul[@class='test-results']/li[contains(.,'test alert sent')]"));
      assertEquals(1, receiver.delivered());
      browser.assertAccessible("a channel by kind, tested");
      browser.screenshot("channel-by-kind");
      browser.width(375);
      browser.screenshot("channel-by-kind-375");
      browser.width(1280);
      browser.button("Save watch").click();
      browser.heading("Acme by webhook");
      assertEquals("/watch/acme-by-webhook", browser.path());
      // after saving: the watch's own channels, through the service
      browser.button("Send a test to each channel").click();
      browser.waitFor(
          By.xpath(
              "//div[@class='channel-tests']//ul[@class='test-results']/li[contains(.,'test"
                  + " alert sent')]"));
      assertEquals(2, receiver.delivered());
      noConsoleErrors();
    }
  }

  @Test
  public void anInvalidFormFocusesItsFirstErrorInAPersonsWords() throws Exception {
    user("ivo");
    browser.open("/new-watch");
    signIn("ivo@example.org");
    browser.heading("New watch");
    browser.type("Cron expression", "61 * * * *");
    // checked as typed
    browser.waitFor(
        By.xpath(
            "//p[.='The schedule is not valid yet: its minute is 61, which must be from 0 to"
                + " 59.']"));
    browser.button("Save watch").click();
    // what is wrong comes first: the service judges the whole form before any warning is shown
    WebElement summary = browser.waitFor(By.cssSelector("form.editor > .error-summary"));
    assertTrue(summary.getText(), summary.getText().startsWith("Not saved: "));
    assertTrue(browser.driver.findElements(By.cssSelector(".warning-gate")).isEmpty());
    browser.waitUntil(d -> browser.field("Name").equals(browser.driver.switchTo().activeElement()));
    String name =
        browser
            .waitFor(
                By.xpath("//div[contains(@class,'invalid')][label[.='Name']]//ul[@class='issues']"))
            .getText();
    assertEquals("Name is needed.", name);
    String cron =
        browser
            .waitFor(
                By.xpath(
                    "//div[contains(@class,'invalid')][label[.='Cron"
                        + " expression']]//ul[@class='issues']"))
            .getText();
    assertEquals(
        "Cron expression is not a valid schedule: its minute is 61, which must be from 0 to 59.",
        cron);
    String page = browser.driver.findElement(By.tagName("main")).getText();
    assertFalse(page, page.contains("Failed to parse"));
    assertFalse(page, page.contains("must not be empty"));
    // the summary links to each field it names
    summary.findElement(By.xpath(".//a[starts-with(.,'Cron expression')]")).click();
    assertEquals(browser.field("Cron expression"), browser.driver.switchTo().activeElement());
    browser.assertAccessible("a refused form");
    browser.screenshot("form-errors");
    browser.width(375);
    browser.screenshot("form-errors-375");
    browser.width(1280);

    // once the form is valid, what may not work: a new watch has no channel
    browser.type("Name", "Acme schedule");
    browser.type("Condition", "Acme announces the date of its first rocket launch");
    browser.type("Search query", "acme launch date");
    browser.type("Cron expression", "0 7 * * *");
    browser.button("Save watch").click();
    browser.waitFor(By.cssSelector(".warning-gate li[data-kind='no-channels']"));
    assertTrue(browser.driver.findElements(By.cssSelector(".error-summary")).isEmpty());
    browser
        .waitFor(By.xpath("//label[normalize-space(.)='I understand; save it anyway']/input"))
        .click();
    browser.button("Save watch").click();
    browser.heading("Acme schedule");
    noConsoleErrors();
  }

  /**
   * Every page, signed out and as an administrator whose watches alert, fail and find nothing new,
   * scanned by axe-core and photographed at 1280 and 375 pixels (docs/screenshots: the page's name,
   * and that name with -375).
   */
  @Test
  public void everyPageHasNoSeriousAccessibilityFinding() throws Exception {
    for (String[] page :
        List.of(
            new String[] {"/sign-in", "page-sign-in"},
            new String[] {"/register", "page-register"},
            new String[] {"/forgot-password", "page-forgot-password"},
            new String[] {"/reset-password", "page-reset-password"},
            new String[] {"/verify-email", "page-verify-email"})) scan(page[0], page[1]);

    HttpResponse<String> made =
        api.send(
            "POST",
            service.uri("/admin/users"),
            adminToken,
            Json.text(
                Map.of(
                    "id",
                    "pat",
                    "email",
                    "pat@example.org",
                    "role",
                    "admin",
                    "password",
                    PASSWORD)));
    assertEquals(made.body(), 201, made.statusCode());
    String token = api.login(service.uri("/"), "pat@example.org", PASSWORD);
    watch(token, "axe-acme", "Acme launch");
    watch(
        token,
        "acme-site",
        "Rocket page",
        "telegram",
        Map.of("type", "page", "value", fakes.base() + "/page/7"));
    watch(token, "beta-feed", "Beta changelog");
    // alerts, a page that stays the same (nothing new), and a feed that went away (errors)
    run(token, "axe-acme", 2);
    run(token, "acme-site", 5);
    run(token, "beta-feed", 2);
    ObjectNode moved =
        (ObjectNode)
            ApiClient.json(api.send("GET", service.uri("/watches/beta-feed"), token, null));
    moved.remove("owner");
    moved.set(
        "sources",
        Json.MAPPER.valueToTree(
            List.of(Map.of("type", "rss", "value", fakes.base() + "/feed/gone.xml"))));
    HttpResponse<String> replaced =
        api.send("PUT", service.uri("/watches/beta-feed"), token, Json.text(moved));
    assertEquals(replaced.body(), 200, replaced.statusCode());
    run(token, "beta-feed", 3);

    browser.open("/");
    signIn("pat@example.org");
    browser.heading("Watches");
    // failing watches first, each with the strip of its last runs
    browser.waitUntil(d -> d.findElements(By.cssSelector("li.watch .strip")).size() == 3);
    assertEquals(
        "Beta changelog",
        browser.driver.findElement(By.cssSelector("ul.watches > li.watch h3")).getText());
    String alerts = browser.waitFor(By.cssSelector(".recent-alerts")).getText();
    assertTrue(alerts, alerts.contains("Acme launch"));
    assertFalse("nothing new is no alert: " + alerts, alerts.contains("Rocket page"));
    assertEquals("The last 5 runs: 5 nothing new", strip("Rocket page"));
    assertEquals("The last 5 runs: 3 errors, 2 alerts", strip("Beta changelog"));
    for (String[] page :
        List.of(
            new String[] {"/", "page-home"},
            new String[] {"/new-watch", "page-new-watch"},
            new String[] {"/watch/axe-acme", "page-watch"},
            new String[] {"/watch/axe-acme/edit", "page-watch-edit"},
            new String[] {"/watch/axe-acme/revise", "page-watch-revise"},
            new String[] {"/watch/axe-acme/versions", "page-watch-versions"},
            new String[] {"/assist", "page-assist"},
            new String[] {"/trust", "page-trust"},
            new String[] {"/notifications", "page-devices"},
            new String[] {"/statistics", "page-statistics"},
            new String[] {"/usage", "page-usage"},
            new String[] {"/api-tokens", "page-api-tokens"},
            new String[] {"/administration/accounts", "page-admin-accounts"},
            new String[] {"/administration/keys", "page-admin-keys"},
            new String[] {"/administration/model", "page-admin-model"},
            new String[] {"/administration/audit", "page-admin-audit"})) scan(page[0], page[1]);
    // the list's controls, the small screen's menu, the history's open row and the editor's
    // folded settings
    browser.open("/");
    browser.waitFor(By.xpath("//button[normalize-space(.)='Run now: Acme launch']"));
    browser.assertAccessible("/ with its rows");
    browser.width(375);
    browser.button("Menu").click();
    browser.link("Trust rules");
    browser.assertAccessible("/ with the menu open at 375 px");
    browser.screenshot("page-menu-375");
    browser.link("Trust rules").click();
    browser.heading("Trust rules");
    assertTrue(
        "the menu folds again after a navigation",
        browser.driver.findElements(By.linkText("Statistics")).stream()
            .noneMatch(WebElement::isDisplayed));
    browser.width(1280);
    browser.open("/watch/axe-acme");
    openRun(0);
    browser.assertAccessible("/watch/axe-acme with a run open");
    browser.open("/watch/axe-acme/edit");
    for (WebElement s : browser.driver.findElements(By.tagName("summary"))) s.click();
    browser.button("Add a channel").click();
    browser.assertAccessible("/watch/axe-acme/edit unfolded");
    noConsoleErrors();
  }

  static void run(String token, String watch, int times) throws Exception {
    for (int i = 0; i < times; i++)
      assertEquals(
          200,
          api.send("POST", service.uri("/watches/" + watch + "/run"), token, null).statusCode());
  }

  /** What the home's strip of the watch named {@code name} says in words. */
  static String strip(String name) {
    return browser
        .driver
        .findElement(By.xpath("//li[.//a[.='" + name + "']]//*[@class='strip']"))
        .getAttribute("aria-label");
  }

  /** Opens {@code path}, waits for its heading, and scans and photographs it at both widths. */
  void scan(String path, String name) {
    browser.width(1280);
    browser.open(path);
    browser.waitFor(By.tagName("h1"));
    browser.waitUntil(d -> d.findElements(By.cssSelector("main .loading")).isEmpty());
    browser.assertAccessible(path);
    browser.screenshot(name);
    browser.width(375);
    browser.assertAccessible(path + " at 375 px");
    browser.screenshot(name + "-375");
    browser.width(1280);
  }

  @Test
  public void aSitesAddressFindsItsFeedInTheEditor() throws Exception {
    user("fiona");
    browser.open("/new-watch");
    signIn("fiona@example.org");
    browser.heading("New watch");
    new org.openqa.selenium.support.ui.Select(browser.field("Type"))
        .selectByVisibleText("RSS or Atom feed");
    browser.type("Feed URL", fakes.siteUrl());
    browser.button("Find feeds").click();
    browser.button("Use Acme news").click();
    browser.waitUntil(d -> fakes.feedUrl().equals(browser.field("Feed URL").getAttribute("value")));
    browser.assertAccessible("new watch with the feeds a site names");
    browser.button("Find feeds").click();
    browser.waitFor(By.xpath("//p[.='This address is a feed.']"));
    noConsoleErrors();
  }

  /**
   * A loopback site: a pricing page whose table sits beside a clock that changes on every fetch,
   * and an app whose page only JavaScript fills.
   */
  static MockWebServer pricingSite() throws Exception {
    MockWebServer site = new MockWebServer();
    AtomicInteger fetched = new AtomicInteger();
    site.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            String page =
                switch (request.getPath()) {
                  case "/pricing" ->
                      "<html><head><title>Acme pricing</title></head><body><nav>Home · Blog</nav>"
                          + "<div id=\"prices\"><p class=\"updated\">Updated at 12:00:"
                          + fetched.incrementAndGet()
                          + "</p><table><tr><th>Plan</th><th>Price</th></tr>"
                          + "<tr><td>Starter</td><td>$9 a month</td></tr>"
                          + "<tr><td>Team</td><td>$29 a month</td></tr></table></div>"
                          + "</body></html>";
                  case "/app" ->
                      "<html><head><title>Acme app</title></head><body><div id=\"root\"></div>"
                          + "<script src=\"/app.js\"></script></body></html>";
                  default -> null;
                };
            return page == null
                ? new MockResponse().setResponseCode(404)
                : new MockResponse().setHeader("Content-Type", "text/html").setBody(page);
          }
        });
    site.start(java.net.InetAddress.getLoopbackAddress(), 0);
    return site;
  }

  @Test
  public void aPersonChecksWhatAPageSourceReadsThenSavesAndRunsIt() throws Exception {
    try (MockWebServer site = pricingSite()) {
      String token = user("paige");
      String pricing = "http://127.0.0.1:" + site.getPort() + "/pricing";
      browser.open("/new-watch");
      signIn("paige@example.org");
      browser.heading("New watch");
      browser.type("Name", "Acme pricing");
      browser.type("Condition", "Acme raises the price of its Team plan");
      new org.openqa.selenium.support.ui.Select(browser.field("Type"))
          .selectByVisibleText("Web page (its changes)");

      // a page only JavaScript fills: the check says so in a sentence, not as a failure code
      browser.type("Page URL", "http://127.0.0.1:" + site.getPort() + "/app");
      browser.type("CSS selector", "#root");
      browser.button("Check").click();
      String problem = browser.waitFor(By.cssSelector(".page-check-problem")).getText();
      assertTrue(problem, problem.startsWith("Nothing to watch here: "));
      assertTrue(problem, problem.contains("JavaScript"));

      // the selected table, the clock in it too until it is ignored
      browser.type("Page URL", pricing);
      browser.type("CSS selector", "#prices");
      browser.button("Check").click();
      String read = browser.waitFor(By.cssSelector(".page-read")).getText();
      assertTrue(read, read.contains("“Acme pricing”"));
      assertTrue(read, read.contains("Team | $29 a month"));
      assertTrue(read, read.contains("Updated at 12:00:"));
      assertFalse("the selector leaves the navigation out: " + read, read.contains("Blog"));
      browser.type("Ignore", ".updated");
      browser.button("Check").click();
      browser.waitUntil(
          d ->
              d.findElements(By.cssSelector(".page-read")).size() == 1
                  && !d.findElement(By.cssSelector(".page-read")).getText().contains("Updated"));
      assertTrue(
          browser.driver.findElement(By.cssSelector(".page-read")).getText().contains("Starter"));
      browser.assertAccessible("a page source checked");
      browser.screenshot("page-source-check");
      browser.width(375);
      browser.screenshot("page-source-check-375");
      browser.width(1280);

      browser.button("Add a channel").click();
      kind(1, "Telegram: the operator’s chat");
      browser.button("Save watch").click();
      browser.heading("Acme pricing");
      String facts = browser.driver.findElement(By.cssSelector("dl.facts")).getText();
      assertTrue(facts, facts.contains("Page: " + pricing + " · at #prices · ignoring .updated"));
      JsonNode stored =
          ApiClient.json(api.send("GET", service.uri("/watches/acme-pricing"), token, null))
              .at("/sources/0");
      assertEquals("page", stored.get("type").asText());
      assertEquals("#prices", stored.get("selector").asText());
      assertEquals(List.of(".updated"), Json.MAPPER.convertValue(stored.get("ignore"), List.class));

      // its first run reads the page as the baseline: nothing to judge yet, no failure
      browser.button("Run now").click();
      String line = browser.waitFor(By.cssSelector("ul.runs > li.run")).getText();
      assertFalse(line, line.toLowerCase().contains("error"));
      noConsoleErrors();
    }
  }

  @Test
  public void anOpmlFileBecomesSourcesUpToTheLimitOrOneWatchPerFolder() throws Exception {
    StringBuilder opml =
        new StringBuilder("<opml version=\"2.0\"><head><title>Reader</title></head><body>");
    opml.append("<outline text=\"Many\">");
    for (int i = 1; i <= 22; i++)
      opml.append("<outline type=\"rss\" text=\"Feed ")
          .append(i)
          .append("\" xmlUrl=\"https://many.example/")
          .append(i)
          .append("\"/>");
    opml.append("</outline><outline text=\"Few\">")
        .append("<outline text=\"One &lt;b&gt;bold&lt;/b&gt;\" xmlUrl=\"https://few.example/\"/>")
        .append("</outline></body></opml>");
    java.nio.file.Path file = java.nio.file.Files.createTempFile("reader", ".opml");
    java.nio.file.Files.writeString(file, opml);
    String token = user("olga");
    browser.open("/new-watch");
    signIn("olga@example.org");
    browser.heading("New watch");
    browser.type("Name", "Reader");
    browser.type("Condition", "Acme announces the date of its first rocket launch");
    browser.field("OPML file").sendKeys(file.toString());
    browser.waitFor(By.xpath("//legend[.='Source 20']"));
    assertTrue(browser.driver.findElements(By.xpath("//legend[.='Source 21']")).isEmpty());
    String left = browser.waitFor(By.cssSelector("ul.left-feeds")).getText();
    assertTrue(left, left.contains("https://many.example/21"));
    assertTrue("a title is text, not markup: " + left, left.contains("One <b>bold</b>"));
    browser.assertAccessible("new watch with an OPML file's feeds");

    browser.button("One watch per folder").click();
    browser.waitUntil(d -> d.findElements(By.cssSelector("ul.created-watches li")).size() == 3);
    HttpResponse<String> listed = api.send("GET", service.uri("/watches"), token, null);
    assertEquals(
        List.of("Many (1)", "Many (2)", "Few"),
        Json.MAPPER.readTree(listed.body()).get("watches").findValuesAsText("name"));
    noConsoleErrors();
  }

  /** Picks the kind of the channel numbered {@code n} (from 1) in the editor. */
  static void kind(int n, String kind) {
    WebElement select =
        browser.waitFor(
            By.xpath(
                "//fieldset[legend[.='Channel "
                    + n
                    + "']]//div[contains(@class,'field')][label[.='Kind']]/select"));
    new org.openqa.selenium.support.ui.Select(select).selectByVisibleText(kind);
  }

  /** Opens the row of the run at {@code index} in the history (newest first). */
  static void openRun(int index) {
    By rows = By.cssSelector("ul.runs > li.run > button.run-line");
    browser.waitUntil(d -> d.findElements(rows).size() > index);
    WebElement row = browser.driver.findElements(rows).get(index);
    if (!"true".equals(row.getAttribute("aria-expanded"))) row.click();
    browser.waitFor(By.xpath("//li[contains(@class,'run')]//h4[.='Verdict']"));
  }

  /** The run's details, opened (a reload closes them). */
  String runDetails() {
    openRun(0);
    browser.waitFor(By.xpath("//li[contains(@class,'run')]//h4[.='Deliveries']"));
    return browser.driver.findElement(By.cssSelector("li.run")).getText();
  }

  @Test
  public void aPersonSeesADeliveryRetryingAndThenDelivered() throws Exception {
    AtomicBoolean failing = new AtomicBoolean(true);
    try (FlakyWebhookReceiver receiver = new FlakyWebhookReceiver((id, attempt) -> failing.get())) {
      String token = user("petra");
      watch(token, "acme-hook", "Acme hook", "webhook:" + receiver.url());
      browser.open("/watch/acme-hook");
      signIn("petra@example.org");
      browser.heading("Acme hook");
      browser.button("Run now").click();
      String run = runDetails();
      assertTrue(
          run,
          Pattern.compile("webhook:\\S+: retrying — HTTP 503; next attempt \\S.*")
              .matcher(run)
              .find());
      browser.assertAccessible("watch page with a delivery retrying");

      failing.set(false); // the receiver is back: the next attempt delivers
      for (int i = 0; i < 300 && receiver.delivered() == 0; i++) Thread.sleep(100);
      assertEquals(1, receiver.delivered());
      for (int i = 0; i < 10 && !run.contains(": delivered"); i++) {
        browser.driver.navigate().refresh();
        run = runDetails();
      }
      assertTrue(run, Pattern.compile("webhook:\\S+: delivered").matcher(run).find());
      assertFalse(run, run.contains("retrying"));
      noConsoleErrors();
    }
  }

  @Test
  public void aPersonDraftsRefinesPreviewsSavesRunsAndRevisesAWatch() throws Exception {
    user("dana");
    browser.open("/assist");
    signIn("dana@example.org");
    browser.heading("Draft a watch with AI");
    browser.assertAccessible("assist");
    browser.type("What should Periscope watch for you?", "Tell me when Acme sets its launch date");
    browser.button("Draft it").click();
    browser.waitFor(By.xpath("//div[contains(@class,'draft')]/h2[.='Acme launch']"));
    browser
        .waitFor(
            By.cssSelector(
                "button[aria-label='Preview results of the search acme rocket launch date']"))
        .click();
    browser.waitUntil(d -> d.findElements(By.cssSelector(".candidates li a")).size() == 5);

    browser.type("Change the draft", "also follow Acme's own news feed");
    browser.button("Refine").click();
    browser.waitFor(By.xpath("//p[starts-with(.,'Round 2')]"));
    browser.waitFor(By.xpath("//li[p/strong[.='Feed: ']]"));
    browser.button("Check the feeds’ domains").click();
    browser.waitFor(By.xpath("//li[starts-with(.,'127.0.0.1: ')]"));
    browser.assertAccessible("assist with a refined draft");
    browser.screenshot("assist");

    browser.button("Use this draft").click();
    browser.heading("Save the draft as a watch");
    assertEquals("acme-launch", browser.field("Identifier").getAttribute("value"));
    browser.button("Add a channel").click();
    kind(1, "Telegram: the operator’s chat");
    browser.button("Save watch").click();
    browser.heading("Acme launch");
    assertEquals("/watch/acme-launch", browser.path());

    browser.button("Explain").click();
    browser.waitFor(By.xpath("//p[.=\"It looks for news of Acme's launch date twice a day.\"]"));

    browser.link("Revise with AI").click();
    browser.heading("Revise Acme launch");
    browser.type("What should change?", "check twice a day");
    browser.button("Propose changes").click();
    WebElement row = browser.waitFor(By.xpath("//table//tr[th[.='Schedule']]"));
    assertTrue(row.getText(), row.getText().contains("Twice a day, as you asked."));
    assertTrue(row.getText(), row.getText().contains(WebFakes.REVISED_SCHEDULE));
    browser.assertAccessible("revise");
    browser.screenshot("revise");
    browser.button("Apply these changes").click();
    browser.heading("Acme launch");
    HttpResponse<String> stored =
        api.send(
            "GET",
            service.uri("/watches/acme-launch"),
            api.login(service.uri("/"), "dana@example.org", PASSWORD),
            null);
    assertEquals(WebFakes.REVISED_SCHEDULE, ApiClient.json(stored).get("schedule").asText());
    noConsoleErrors();
  }

  @Test
  public void aPersonBacktestsARevisionBeforeApplyingIt() throws Exception {
    String token = user("rosa");
    watch(token, "acme-tried", "Acme tried");
    HttpResponse<String> ran =
        api.send("POST", service.uri("/watches/acme-tried/run"), token, null);
    assertEquals(ran.body(), 200, ran.statusCode());
    String runId = ApiClient.json(ran).at("/result/runId").asText();
    HttpResponse<String> marked =
        api.send(
            "PUT",
            service.uri("/watches/acme-tried/runs/" + runId + "/feedback"),
            token,
            "{\"kind\": \"useful\"}");
    assertEquals(marked.body(), 200, marked.statusCode());

    browser.open("/watch/acme-tried");
    signIn("rosa@example.org");
    browser.heading("Acme tried");
    browser.link("Revise with AI").click();
    browser.heading("Revise Acme tried");
    browser.type("What should change?", "check twice a day");
    browser.button("Propose changes").click();
    browser.waitFor(By.xpath("//table//tr[th[.='Schedule']]"));
    browser.button("Backtest this revision").click();
    browser.waitFor(By.xpath("//h2[.='Backtest on past runs']"));
    String summary = browser.waitFor(By.cssSelector(".backtest-summary")).getText();
    assertTrue(summary, summary.startsWith("0 of 1 runs judged again would change"));
    String row = browser.waitFor(By.xpath("//section[@aria-label='Backtest']//tbody/tr")).getText();
    assertTrue(row, row.contains("Alert"));
    assertTrue(row, row.contains("Useful"));
    browser.assertAccessible("revise with a backtest");
    browser.driver.executeScript("document.querySelector('section.backtest').scrollIntoView()");
    browser.screenshot("revise-backtest");
    browser.button("Apply these changes").click();
    browser.heading("Acme launch");
    noConsoleErrors();
  }

  @Test
  public void anAdministratorAddsAKeyTheProviderRejectsAndSeesWhy() throws Exception {
    browser.open("/");
    signIn(ADMIN_EMAIL);
    browser.link("Administration").click();
    browser.heading("Accounts");
    browser.waitFor(By.xpath("//td[.='root@example.org']"));
    browser.assertAccessible("accounts");
    browser.link("Keys").click();
    browser.heading("Keys");
    browser.waitFor(By.xpath("//li[contains(@class,'card')]//strong[starts-with(.,'model: ')]"));
    browser.type("Key", WebFakes.REJECTED_KEY);
    browser.button("Add key").click();
    WebElement refusal = browser.waitFor(By.xpath("//form//p[contains(@class,'error')]"));
    assertTrue(refusal.getText(), refusal.getText().startsWith("The provider rejected this key"));
    browser.assertAccessible("keys");
    browser.screenshot("admin-keys");
    browser.link("Models").click();
    browser.heading("Models");
    assertEquals("fake-model", browser.field("Verdicts: model").getAttribute("value"));
    browser.assertAccessible("models");
    browser.type("Verdicts: input price", "0.15");
    browser.type("Verdicts: output price", "cheap");
    browser.button("Save models").click();
    browser.waitFor(
        By.xpath(
            "//label[.='Verdicts: output"
                + " price']/following-sibling::ul[@class='issues']/li[.='Verdicts: output price"
                + " must be a number from 0 to 100000 (per million tokens).']"));
    browser.type("Verdicts: output price", "0.60");
    browser.button("Save models").click();
    browser.waitFor(By.xpath("//p[@role='status' and starts-with(.,'Set by root on ')]"));
    com.fasterxml.jackson.databind.JsonNode models =
        ApiClient.json(api.send("GET", service.uri("/admin/model"), adminToken, null));
    assertEquals(
        Json.MAPPER.readTree("{\"inputPerMillion\": 0.15, \"outputPerMillion\": 0.6}"),
        models.at("/verdicts/price"));
    assertTrue("no price typed, none set", models.at("/assistance/price").isMissingNode());
    assertEquals("0.6", browser.field("Verdicts: output price").getAttribute("value"));
    assertEquals(
        200, api.send("DELETE", service.uri("/admin/model"), adminToken, null).statusCode());
    noConsoleErrors();

    // a user sees no administration, not even by its address
    user("ursula");
    browser.button("Sign out").click();
    signIn("ursula@example.org");
    browser.heading("Watches");
    assertTrue(browser.driver.findElements(By.linkText("Administration")).isEmpty());
    browser.open("/administration/keys");
    browser.heading("Page not found");
  }

  @Test
  public void aPersonSeesWhatARunJudgedAndWhatTheirWatchesCost() throws Exception {
    String token = user("vanya");
    watch(token, "vanya-acme", "Acme launch");
    // verdicts priced, so the run and the month show a cost; assistance not
    assertEquals(
        200,
        api.send(
                "PUT",
                service.uri("/admin/model"),
                adminToken,
                Json.text(
                    Map.of(
                        "verdicts",
                        Map.of(
                            "provider",
                            "openai",
                            "baseUrl",
                            fakes.base() + "/v1",
                            "model",
                            "fake-model",
                            "price",
                            Map.of("inputPerMillion", 2.5, "outputPerMillion", 10)),
                        "assistance",
                        Map.of(
                            "provider",
                            "openai",
                            "baseUrl",
                            fakes.base() + "/v1",
                            "model",
                            "fake-model"))))
            .statusCode());
    try {
      assertEquals(
          200, api.send("POST", service.uri("/watches/vanya-acme/run"), token, null).statusCode());
      browser.open("/watch/vanya-acme");
      signIn("vanya@example.org");
      browser.heading("Acme launch");
      WebElement month =
          browser.waitFor(
              By.xpath(
                  "//dt[.='Model use this month']/following-sibling::dd[1][contains(.,'tokens')]"));
      assertTrue(month.getText(), month.getText().contains("2,040 tokens"));
      assertTrue(month.getText(), month.getText().contains("cost 0.0069"));
      openRun(0);
      WebElement judged =
          browser.waitFor(By.xpath("//li[contains(@class,'run')]//h4[.='What was judged']"));
      WebElement cited =
          browser.waitFor(By.xpath("//li[contains(@class,'judged') and contains(@class,'cited')]"));
      assertTrue(cited.getText(), cited.getText().startsWith("Cited"));
      assertTrue(
          "the feed's title is text, not markup: " + cited.getText(),
          cited.getText().contains(WebFakes.HOSTILE_TITLE));
      String run = browser.driver.findElement(By.cssSelector("li.run")).getText();
      assertTrue(run, run.contains("1 item was put before the model; 1 cited."));
      browser.assertAccessible("a run's judged items");
      browser.driver.executeScript("arguments[0].scrollIntoView()", judged);
      browser.screenshot("run-judged");

      browser.link("Usage").click();
      browser.heading("Model usage");
      browser.waitFor(By.xpath("//table//td[a[.='Acme launch']]"));
      assertEquals(
          "a bar a day",
          30L,
          browser.driver.executeScript("return document.querySelectorAll('.bars li').length"));
      String usage = browser.driver.findElement(By.tagName("main")).getText();
      assertTrue(usage, usage.contains("This month: 2,040 tokens (1,800 in, 240 out) in 1 call"));
      browser.assertAccessible("usage");
      browser.screenshot("usage");

      // the month's budgets against what it used: tokens spent, cost not
      assertEquals(
          200,
          api.send(
                  "PUT",
                  service.uri("/admin/users/vanya/quotas"),
                  adminToken,
                  "{\"modelTokensPerMonth\": 2000, \"modelCostPerMonth\": 0.05}")
              .statusCode());
      browser.open("/usage");
      browser.heading("Model usage");
      WebElement tokens =
          browser.waitFor(By.xpath("//li[contains(@class,'budget') and contains(@class,'spent')]"));
      assertTrue(tokens.getText(), tokens.getText().startsWith("Tokens:"));
      assertTrue(tokens.getText(), tokens.getText().contains("2,040 of 2,000 tokens (102%)"));
      assertTrue(
          tokens.getText(), tokens.getText().contains("spent: scheduled runs call no model"));
      WebElement money =
          browser.waitFor(
              By.xpath("//li[contains(@class,'budget') and not(contains(@class,'spent'))]"));
      assertTrue(money.getText(), money.getText().startsWith("Cost:"));
      assertTrue(money.getText(), money.getText().contains("0.0069 of 0.05 (14%)"));
      assertTrue(money.getText(), money.getText().contains("resets"));
      assertEquals(
          "a meter per budget",
          2L,
          browser.driver.executeScript(
              "return document.querySelectorAll('.budgets meter').length"));
      browser.assertAccessible("usage with budgets");
      browser.driver.executeScript(
          "arguments[0].scrollIntoView()", browser.driver.findElement(By.cssSelector(".budgets")));
      browser.screenshot("usage-budgets");
      noConsoleErrors();
    } finally {
      api.send("DELETE", service.uri("/admin/model"), adminToken, null);
    }
  }

  @Test
  public void aPersonMarksWhatARunJudgedAndReadsHowOftenTheWatchIsRight() throws Exception {
    String token = user("quinn");
    watch(token, "quinn-acme", "Acme rated");
    // four alerts rated useful through the interface; the fifth, the newest, in the browser
    List<String> runs = new java.util.ArrayList<>();
    for (int i = 0; i < 5; i++) {
      HttpResponse<String> run =
          api.send("POST", service.uri("/watches/quinn-acme/run"), token, null);
      assertEquals(run.body(), 200, run.statusCode());
      runs.add(Json.MAPPER.readTree(run.body()).at("/result/runId").asText());
    }
    for (String run : runs.subList(0, 4))
      assertEquals(
          200,
          api.send(
                  "PUT",
                  service.uri("/watches/quinn-acme/runs/" + run + "/feedback"),
                  token,
                  "{\"kind\": \"useful\"}")
              .statusCode());
    browser.open("/watch/quinn-acme");
    signIn("quinn@example.org");
    browser.heading("Acme rated");
    WebElement quality =
        browser.waitFor(
            By.xpath(
                "//dt[.='How often it is right']/following-sibling::dd[1][contains(.,'rated')]"));
    assertTrue(
        quality.getText(),
        quality.getText().contains("You rated 4 alerts (4 useful); rate at least 5"));

    openRun(0);
    browser.button("Give feedback").click();
    browser.driver.findElement(By.xpath("//label[span[.='Useful']]/input")).click();
    browser.button("Mark the judged items").click();
    WebElement mark =
        browser.waitFor(By.xpath("//section[@aria-label='Mark the judged items']//select"));
    assertEquals(
        "the item's title is its label, as text",
        WebFakes.HOSTILE_TITLE,
        browser
            .driver
            .findElement(By.xpath("//section[@aria-label='Mark the judged items']//label"))
            .getText());
    new org.openqa.selenium.support.ui.Select(mark).selectByVisibleText("Relevant");
    browser.button("Save feedback").click();
    browser.waitFor(
        By.xpath("//p[starts-with(.,'You said: Useful') and contains(.,'1 item relevant')]"));
    quality =
        browser.waitFor(
            By.xpath(
                "//dt[.='How often it is right']/following-sibling::dd[1][contains(.,'Of the 5"
                    + " alerts')]"));
    assertTrue(
        quality.getText(),
        quality.getText().contains("Of the 5 alerts you rated, 5 were useful (100%)."));
    assertTrue(
        quality.getText(),
        quality.getText().contains("Of the 1 item you said it should alert on, 1 alerted"));
    browser.assertAccessible("feedback marking judged items");
    browser.driver.executeScript("arguments[0].scrollIntoView()", quality);
    browser.screenshot("watch-quality");

    browser.driver.navigate().refresh();
    openRun(0);
    browser.waitFor(
        By.xpath("//p[starts-with(.,'You said: Useful') and contains(.,'1 item relevant')]"));
    assertEquals(
        "relevant",
        Json.MAPPER
            .readTree(
                api.send(
                        "GET",
                        service.uri("/watches/quinn-acme/runs/" + runs.get(4) + "/feedback"),
                        token,
                        null)
                    .body())
            .at("/items/0/label")
            .asText());
    noConsoleErrors();
  }

  @Test
  public void aPersonTestsAWatchBeforeSavingItAndNothingIsSentOrRecorded() throws Exception {
    String token = user("tara");
    watch(token, "tara-acme", "Acme launch");
    int sent = fakes.telegram.size();
    browser.open("/watch/tara-acme");
    signIn("tara@example.org");
    browser.heading("Acme launch");
    browser.button("Test now").click();
    String report = browser.waitFor(By.cssSelector("section.dry-run")).getText();
    assertTrue(report, report.contains("A run now would alert. Nothing was sent"));
    assertTrue(report, report.contains("Acme set its launch for 1 March."));
    assertTrue(report, report.contains("1 item was put before the model; 1 cited."));
    assertTrue(
        "the feed's title is text, not markup: " + report, report.contains(WebFakes.HOSTILE_TITLE));
    browser.waitFor(By.xpath("//p[starts-with(.,'This watch has not run yet.')]"));
    browser.assertAccessible("watch page with a test result");

    browser.link("Edit").click();
    browser.heading("Edit Acme launch");
    browser.type("Condition", "Acme cancels its rocket programme");
    browser.button("Test").click();
    WebElement tested =
        browser.waitFor(By.cssSelector("form.editor + section.dry-run, section.dry-run"));
    String again = tested.getText();
    assertTrue(again, again.contains("What was judged"));
    assertTrue(again, again.contains("Model use:"));
    browser.assertAccessible("editor with a test result");
    browser.driver.executeScript("arguments[0].scrollIntoView()", tested);
    browser.screenshot("watch-test");
    // the condition tried was not saved, and neither test sent or recorded anything
    HttpResponse<String> stored = api.send("GET", service.uri("/watches/tara-acme"), token, null);
    assertTrue(
        stored.body(),
        stored.body().contains("Acme announces the date of its first rocket launch"));
    HttpResponse<String> runs =
        api.send("GET", service.uri("/watches/tara-acme/runs"), token, null);
    assertEquals(runs.body(), 0, Json.MAPPER.readTree(runs.body()).get("runs").size());
    assertEquals(sent, fakes.telegram.size());

    // a new watch is tested whole, its problems shown at their fields, before it is saved
    browser.open("/new-watch");
    browser.heading("New watch");
    browser.type("Identifier", "tara-new");
    browser.type("Name", "Acme new");
    browser.button("Test").click();
    browser.waitFor(
        By.xpath("//div[contains(@class,'invalid')][label[.='Condition']]//ul[@class='issues']"));
    browser.waitFor(By.xpath("//p[starts-with(.,'Not tested: ')]"));
    noConsoleErrors();
  }

  @Test
  public void signingInThroughTheIdentityProviderLandsSignedIn() throws Exception {
    browser.open("/sign-in");
    browser.link("GitHub").click();
    browser.heading("Watches");
    assertEquals(
        "the token left the address bar at once",
        "",
        browser.driver.executeScript("return location.hash"));
    String token =
        (String) browser.driver.executeScript("return localStorage.getItem('periscope.session')");
    HttpResponse<String> watches = api.send("GET", service.uri("/watches"), token, null);
    assertEquals(200, watches.statusCode());
  }

  /**
   * Anybody can send a link to the client with a token of their own account in the fragment: taken,
   * it would put the person's next watches, addresses and devices in that account. Only the sign-in
   * this tab started (its nonce) is taken.
   */
  @Test
  public void aSessionHandedOverInALinkIsTakenOnlyWhenThisTabStartedIt() throws Exception {
    user("vicky");
    String other = user("mallory");
    browser.open("/");
    signIn("vicky@example.org");
    browser.heading("Watches");
    String mine =
        (String) browser.driver.executeScript("return localStorage.getItem('periscope.session')");

    browser.open("/trust"); // another page first, so that the link loads the client anew
    browser.open("/#token=" + other + "&tokenType=Bearer");
    browser.heading("Watches");
    WebElement notice = browser.waitFor(By.id("ignored-session"));
    assertTrue(notice.getText(), notice.getText().contains("You are still signed in as vicky"));
    assertEquals(
        "the session is still the person's own",
        mine,
        browser.driver.executeScript("return localStorage.getItem('periscope.session')"));
    assertEquals("", browser.driver.executeScript("return location.hash"));

    // a nonce this tab did not start is no better
    browser.driver.executeScript(
        "sessionStorage.setItem('periscope.signInNonce', 'n-of-this-tab-0001')");
    browser.open("/trust");
    browser.open("/#token=" + other + "&nonce=n-of-another-tab-002");
    browser.waitFor(By.id("ignored-session"));
    assertEquals(
        mine, browser.driver.executeScript("return localStorage.getItem('periscope.session')"));

    // signed out, the link signs nobody in to the other account
    browser.driver.executeScript("localStorage.clear(); sessionStorage.clear();");
    browser.open("/sign-in");
    browser.open("/#token=" + other);
    browser.heading("Sign in");
    browser.waitFor(By.id("ignored-session"));
    assertEquals(
        null, browser.driver.executeScript("return localStorage.getItem('periscope.session')"));
  }

  @Test
  public void aVerificationMailsLinkOpensTheClientAndVerifies() throws Exception {
    browser.open("/sign-in");
    browser.link("Create an account").click();
    browser.heading("Create an account");
    browser.assertAccessible("register");
    browser.type("Email", "vera@example.org");
    browser.type("Password", PASSWORD);
    browser.button("Create account").click();
    browser.heading("Check your mail");
    String text = mailbox.await("vera@example.org", 1).text();
    Matcher link =
        Pattern.compile("http://127\\.0\\.0\\.1:\\d+/verify-email#token=\\S+").matcher(text);
    assertTrue(text, link.find());
    browser.driver.get(link.group());
    browser.waitFor(By.xpath("//p[.='Thank you: vera@example.org is verified.']"));
    assertEquals("", browser.driver.executeScript("return location.hash"));
    browser.assertAccessible("verified");
    browser.link("Sign in").click();
    signIn("vera@example.org");
    browser.heading("Watches");
    browser.waitFor(By.xpath("//p[.='You have no watches yet.']"));
    browser.screenshot("empty-watch-list");
  }

  @Test
  public void thisBrowserRegistersForPushAndTheServiceGetsItsSubscription() throws Exception {
    String token = user("pia");
    browser.open("/notifications");
    signIn("pia@example.org");
    browser.heading("Alerts on your devices");
    browser.waitFor(By.xpath("//p[.='No device gets push alerts yet.']"));
    browser.assertAccessible("devices");
    // headless Chromium reaches no push service: the subscription is the one a push service would
    // give
    java.security.KeyPairGenerator keys = java.security.KeyPairGenerator.getInstance("EC");
    keys.initialize(new java.security.spec.ECGenParameterSpec("secp256r1"));
    java.security.interfaces.ECPublicKey key =
        (java.security.interfaces.ECPublicKey) keys.generateKeyPair().getPublic();
    byte[] point = new byte[65];
    point[0] = 4;
    byte[] x = key.getW().getAffineX().toByteArray();
    byte[] y = key.getW().getAffineY().toByteArray();
    System.arraycopy(
        x,
        Math.max(0, x.length - 32),
        point,
        1 + Math.max(0, 32 - x.length),
        Math.min(32, x.length));
    System.arraycopy(
        y,
        Math.max(0, y.length - 32),
        point,
        33 + Math.max(0, 32 - y.length),
        Math.min(32, y.length));
    java.util.Base64.Encoder b64 = java.util.Base64.getUrlEncoder().withoutPadding();
    String endpoint = "https://push.example.org/send/web-client-test";
    browser.driver.executeScript(
        "const sub = {endpoint: arguments[0], toJSON: () => ({endpoint: arguments[0], keys:"
            + " {p256dh: arguments[1], auth: arguments[2]}})};"
            + "window.subscribedWith = null;"
            + "PushManager.prototype.subscribe = async function (options) {"
            + " window.subscribedWith = options.applicationServerKey.byteLength; return sub; };",
        endpoint,
        b64.encodeToString(point),
        b64.encodeToString(new byte[16]));
    browser.button("Get alerts on this browser").click();
    browser.waitFor(By.xpath("//p[.='This browser gets your push alerts.']"));
    assertEquals(
        "the service's VAPID public key",
        65L,
        browser.driver.executeScript("return window.subscribedWith"));
    HttpResponse<String> devices = api.send("GET", service.uri("/devices"), token, null);
    assertEquals(
        devices.body(),
        "push.example.org",
        ApiClient.json(devices).at("/devices/0/pushService").asText());
    browser.screenshot("devices");

    browser.open("/new-watch");
    browser.button("Alert this browser (push)").click();
    assertEquals(
        "push",
        browser
            .driver
            .findElement(By.xpath("//fieldset[legend[.='Channel 1']]//select"))
            .getAttribute("value"));
    noConsoleErrors();
  }

  @Test
  public void signingOutEndsTheTokenOnTheService() throws Exception {
    user("otto");
    browser.open("/");
    signIn("otto@example.org");
    browser.heading("Watches");
    String token =
        (String) browser.driver.executeScript("return localStorage.getItem('periscope.session')");
    assertEquals(200, api.send("GET", service.uri("/watches"), token, null).statusCode());
    browser.button("Sign out").click();
    browser.heading("Sign in");
    assertEquals(
        null, browser.driver.executeScript("return localStorage.getItem('periscope.session')"));
    assertEquals(
        "the token a copy of which anybody kept answers 401",
        401,
        api.send("GET", service.uri("/watches"), token, null).statusCode());
    noConsoleErrors();
  }

  /**
   * A mail scanner opens links and runs their scripts: opening the mailed identity link must
   * connect nothing; the button that names the provider and the login does.
   */
  @Test
  public void aMailedIdentityLinkConnectsOnlyByItsButton() throws Exception {
    fakes.gitHubUser.set(new WebFakes.GitHubUser(778, "lina-gh", "lina@example.org"));
    try {
      user("lina");
      browser.open("/sign-in");
      browser.link("GitHub").click();
      Mailbox.Received mail = mailbox.await("lina@example.org", 1);
      assertEquals("Connect a sign-in to your Periscope account", mail.subject());
      Matcher link =
          Pattern.compile("http://127\\.0\\.0\\.1:\\d+/link-identity#token=\\S+")
              .matcher(mail.text());
      assertTrue(mail.text(), link.find());
      String details = Json.text(Map.of("token", mail.token()));

      browser.driver.get(link.group());
      WebElement connect = browser.button("Connect GitHub account lina-gh");
      assertEquals("", browser.driver.executeScript("return location.hash"));
      browser.assertAccessible("link identity");
      assertEquals(
          "the page opened, and the token is still unused",
          200,
          api.send("POST", service.uri("/auth/link-identity/details"), null, details).statusCode());

      connect.click();
      browser.waitFor(
          By.xpath("//p[.='The sign-in is connected to your account. Use it next time.']"));
      assertEquals(
          "used by the button",
          400,
          api.send("POST", service.uri("/auth/link-identity/details"), null, details).statusCode());
      browser.link("Sign in").click();
      browser.link("GitHub").click();
      browser.heading("Watches");
      String token =
          (String) browser.driver.executeScript("return localStorage.getItem('periscope.session')");
      assertEquals(
          "lina",
          ApiClient.json(api.send("GET", service.uri("/account"), token, null)).get("id").asText());
      noConsoleErrors();
    } finally {
      fakes.gitHubUser.set(WebFakes.GINA);
    }
  }
}
