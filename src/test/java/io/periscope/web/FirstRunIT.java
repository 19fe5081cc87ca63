package io.periscope.web;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import io.periscope.testing.ApiClient;
import io.periscope.testing.NeedsBrowser;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.FixMethodOrder;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.junit.runners.MethodSorters;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * A new instance as a person meets it, in Chromium: no account, no search key and no mail. The
 * start prints a one-time setup link that makes the first administrator and then refuses; a draft
 * proposing a search is warned about before it is saved, and a watch without channels is saved only
 * once the person acknowledged it; the administrator manages accounts from the table. The methods
 * run in name order: the first makes the administrator the others act as.
 */
@Category(NeedsBrowser.class)
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class FirstRunIT extends BrowserJourneys {
  static final String ADMIN_EMAIL = "first@example.org";
  static final String PASSWORD = "a-long-first-run-passphrase";

  @BeforeClass
  public static void start() throws Exception {
    startService(
        "periscope-first-run",
        "first-run-test-secret-of-32-bytes!",
        env -> {
          // an instance without search: its drafts still propose searches
          env.remove("SEARCH_PROVIDER");
          env.remove("SEARCH_BASE_URL");
          env.remove("SEARCH_API_KEYS");
          env.put("JAVA_TOOL_OPTIONS", "-Dperiscope.rate-limits.auth-per-ip-per-minute=1000");
        });
  }

  @AfterClass
  public static void stop() throws Exception {
    stopService();
  }

  /** The setup link of the service's output, once it printed it. */
  static String setupLink() throws Exception {
    Pattern link = Pattern.compile("http://\\S+/setup#token=[A-Za-z0-9_-]+");
    Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
    while (Instant.now().isBefore(deadline)) {
      Matcher m = link.matcher(Files.readString(log));
      if (m.find()) return m.group();
      Thread.sleep(200);
    }
    throw new AssertionError("no setup link in the output: " + Files.readString(log));
  }

  @Test
  public void aFreshInstanceMakesItsFirstAdministratorThroughTheOneTimeLink() throws Exception {
    String output = Files.readString(log);
    String link = setupLink();
    assertTrue(output, output.contains("Not configured:"));
    assertTrue(output, output.contains("a search key: search sources fail"));
    assertTrue(output, output.contains("users create --id ID --email EMAIL --role admin"));
    // Pekko's internals are not the start's output
    assertFalse(output, output.contains("logger=o.a.p.c.Cluster"));

    // the sign-in page of an instance without accounts says how to make the first administrator,
    // and offers no mailed reset on an instance without mail
    browser.width(1280);
    browser.open("/sign-in");
    browser.waitFor(By.xpath("//h2[normalize-space(.)='No account exists yet']"));
    assertTrue(browser.driver.findElements(By.linkText("Forgot your password?")).isEmpty());
    browser.assertAccessible("sign-in of a new instance");
    browser.screenshot("first-run-sign-in");
    browser.width(375);
    browser.screenshot("first-run-sign-in-375");

    browser.width(1280);
    browser.open(link.substring(link.indexOf("/setup")));
    browser.heading("Set up Periscope");
    assertFalse(
        "the token leaves the address bar", browser.driver.getCurrentUrl().contains("token"));
    browser.type("Account id", "first");
    browser.type("Email", ADMIN_EMAIL);
    browser.type("Password", "short");
    browser.button("Create administrator").click();
    browser.waitFor(By.cssSelector(".field.invalid"));
    // the refusal in a person's words, summed up at the top, the focus on the field to fix
    String refused = browser.waitFor(By.cssSelector(".error-summary")).getText();
    assertTrue(refused, refused.contains("Password must be 8 to 256 characters."));
    assertFalse(refused, refused.contains("the request is invalid"));
    assertEquals(browser.field("Password"), browser.driver.switchTo().activeElement());
    browser.assertAccessible("setup");
    browser.screenshot("setup");
    browser.width(375);
    browser.screenshot("setup-375");
    browser.width(1280);
    browser.type("Password", PASSWORD);
    browser.button("Create administrator").click();
    browser.heading("Keys");
    assertEquals("/administration/keys", browser.path());
    // the empty pools say what they break
    WebElement search = browser.waitFor(By.cssSelector(".pool-empty[data-pool='search']"));
    assertTrue(search.getText(), search.getText().contains("search sources fail on every run"));
    browser.screenshot("admin-keys-empty-pool");

    // the link is spent: the route refuses, and the page is gone
    Matcher token = Pattern.compile("token=(\\S+)").matcher(link);
    assertTrue(token.find());
    HttpResponse<String> again =
        api.send(
            "POST",
            service.uri("/auth/setup"),
            null,
            Json.text(
                Map.of(
                    "token",
                    token.group(1),
                    "id",
                    "second",
                    "email",
                    "second@example.org",
                    "password",
                    PASSWORD)));
    assertEquals(again.body(), 409, again.statusCode());
    HttpResponse<String> status = api.send("GET", service.uri("/config/status"), null, null);
    assertFalse(status.body(), ApiClient.json(status).path("setup").asBoolean(true));
    browser.driver.executeScript("localStorage.clear();");
    browser.open("/setup");
    browser.waitFor(By.xpath("//*[contains(., 'This instance is set up already')]"));
    browser.open("/sign-in");
    browser.heading("Sign in");
    assertTrue(browser.driver.findElements(By.cssSelector(".first-run")).isEmpty());
    adminToken = api.login(service.uri("/"), ADMIN_EMAIL, PASSWORD);
  }

  void signIn() {
    browser.width(1280);
    browser.open("/sign-in");
    browser.driver.executeScript("localStorage.clear(); sessionStorage.clear();");
    browser.open("/sign-in");
    browser.heading("Sign in");
    browser.type("Email", ADMIN_EMAIL);
    browser.type("Password", PASSWORD);
    browser.button("Sign in").click();
    browser.heading("Watches");
  }

  @Test
  public void bADraftThatSearchesIsWarnedAboutBeforeItIsSaved() throws Exception {
    signIn();
    browser.open("/assist");
    browser.heading("Draft a watch with AI");
    browser.type(
        "What should Periscope watch for you?", "Tell me when Acme dates its rocket launch");
    browser.button("Draft it").click();
    WebElement warned = browser.waitFor(By.cssSelector(".warnings li[data-kind='no-search-key']"));
    assertTrue(warned.getText(), warned.getText().contains("no usable search key"));
    // a search that cannot run offers no preview, and says why in its place
    String noPreview = browser.waitFor(By.cssSelector(".draft .no-preview")).getText();
    assertTrue(noPreview, noPreview.contains("no usable search key"));
    assertTrue(
        browser
            .driver
            .findElements(By.xpath("//button[normalize-space(.)='Preview results']"))
            .isEmpty());
    browser.assertAccessible("draft with a warning");
    browser.screenshot("draft-warned");
    browser.width(375);
    browser.screenshot("draft-warned-375");
    browser.width(1280);

    browser.button("Use this draft").click();
    browser.heading("Save the draft as a watch");
    browser.button("Save watch").click();
    // not saved: the gate names what cannot work, no channel among it
    browser.waitFor(By.cssSelector(".warning-gate li[data-kind='no-channels']"));
    assertTrue(
        browser
            .waitFor(By.cssSelector(".warning-gate"))
            .getText()
            .contains("This watch will not notify anyone."));
    assertEquals("/assist", browser.path());
    browser.assertAccessible("editor with warnings");
    browser.screenshot("editor-warnings");
    browser.width(375);
    browser.screenshot("editor-warnings-375");
    browser.width(1280);
    browser
        .waitFor(By.xpath("//label[normalize-space(.)='I understand; save it anyway']/input"))
        .click();
    browser.button("Save watch").click();
    browser.waitUntil(d -> browser.path().startsWith("/watch/"));
    String id = browser.path().substring("/watch/".length());

    // an API client saving the same is not refused: the answer carries the warnings
    HttpResponse<String> got = api.send("GET", service.uri("/watches/" + id), adminToken, null);
    JsonNode watch = ApiClient.json(got);
    ((com.fasterxml.jackson.databind.node.ObjectNode) watch).put("id", id + "-api");
    HttpResponse<String> saved =
        api.send(
            "POST", service.uri("/watches"), adminToken, Json.MAPPER.writeValueAsString(watch));
    assertEquals(saved.body(), 201, saved.statusCode());
    List<String> kinds = ApiClient.json(saved).path("warnings").findValuesAsText("kind");
    assertTrue(saved.body(), kinds.containsAll(List.of("no-search-key", "no-channels")));

    // a failed run says why on its line in the list
    HttpResponse<String> ran =
        api.send("POST", service.uri("/watches/" + id + "/run"), adminToken, null);
    assertEquals(ran.body(), 200, ran.statusCode());
    browser.open("/");
    WebElement reason = browser.waitFor(By.cssSelector(".run-reason"));
    assertTrue(reason.getText(), reason.getText().contains("search"));
    browser.screenshot("watch-list-failed-reason");
    browser.width(375);
    browser.screenshot("watch-list-failed-reason-375");
  }

  WebElement rowButton(String account, String text) {
    return browser.waitFor(
        By.xpath(
            "//tr[td[1][starts-with(normalize-space(.),'"
                + account
                + "')]]//button[normalize-space(.)='"
                + text
                + "']"));
  }

  WebElement rowState(String account) {
    return browser.waitFor(
        By.xpath("//tr[td[1][starts-with(normalize-space(.),'" + account + "')]]/td[4]"));
  }

  @Test
  public void cTheAdministratorManagesAccountsFromTheTable() throws Exception {
    makeAccount("dora", PASSWORD);
    signIn();
    browser.open("/administration/accounts");
    browser.heading("Accounts");
    assertEquals(
        "page",
        browser
            .waitFor(By.xpath("//nav[@aria-label='Administration']//a[.='Accounts']"))
            .getAttribute("aria-current"));

    rowButton("dora", "Disable").click();
    browser.waitUntil(d -> rowState("dora").getText().contains("disabled"));
    HttpResponse<String> login =
        api.send(
            "POST",
            service.uri("/auth/login"),
            null,
            Json.text(Map.of("email", "dora@example.org", "password", PASSWORD)));
    assertEquals(login.body(), 403, login.statusCode());
    rowButton("dora", "Enable").click();
    browser.waitUntil(d -> rowState("dora").getText().contains("active"));

    new Select(browser.waitFor(By.cssSelector("select[aria-label='Role of dora']")))
        .selectByValue("admin");
    browser.waitFor(By.xpath("//p[contains(., 'dora is now an administrator')]"));

    // without mail, no mailed reset: the page says how else to do it
    browser.waitFor(By.xpath("//p[contains(., 'users reset-password')]"));
    assertTrue(
        browser
            .driver
            .findElements(By.xpath("//button[normalize-space(.)='Reset password']"))
            .isEmpty());

    rowButton("dora", "Quotas").click();
    browser.waitFor(By.xpath("//h3[normalize-space(.)='Quotas of dora']"));
    browser.type("Watches", "3");
    browser.button("Save quotas").click();
    browser.waitFor(By.xpath("//p[contains(., 'Quotas of dora saved.')]"));
    HttpResponse<String> quotas =
        api.send("GET", service.uri("/admin/users/dora/quotas"), adminToken, null);
    assertEquals(3, ApiClient.json(quotas).path("overrides").path("maxWatches").asInt());
    browser.assertAccessible("accounts");
    browser.driver.executeScript("window.scrollTo(0, 0)");
    browser.screenshot("admin-accounts");
    browser.width(375);
    browser.driver.executeScript("window.scrollTo(0, 0)");
    browser.screenshot("admin-accounts-375");
    browser.width(1280);

    browser.driver.executeScript("window.confirm = () => true;");
    rowButton("dora", "Delete").click();
    browser.waitUntil(
        d ->
            d.findElements(By.xpath("//tr[td[1][starts-with(normalize-space(.),'dora')]]"))
                .isEmpty());
    HttpResponse<String> gone = api.send("GET", service.uri("/admin/users"), adminToken, null);
    assertFalse(gone.body(), gone.body().contains("\"dora\""));

    browser.link("Audit log").click();
    browser.heading("Audit log");
    String audit = browser.waitFor(By.cssSelector("table")).getText();
    for (String action : List.of("disabled", "enabled", "set the role of", "deleted"))
      assertTrue(audit, audit.contains(action));
    assertTrue(audit, audit.contains("setup-link"));
    browser.assertAccessible("audit log");
    browser.screenshot("admin-audit");
    browser.width(375);
    browser.screenshot("admin-audit-375");
  }
}
