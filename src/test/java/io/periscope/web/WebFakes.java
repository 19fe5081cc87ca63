package io.periscope.web;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import java.io.IOException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import okhttp3.HttpUrl;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;

/**
 * Every upstream of the browser journeys on one loopback port: an RSS feed whose items carry a
 * hostile title, an OpenAI-compatible model (verdicts, drafts, refinements, revisions and
 * explanations, told apart by the structured answer they ask for) whose key probe refuses {@link
 * #REJECTED_KEY}, Brave search, the Telegram Bot API, and GitHub's sign-in (it approves at once, as
 * a person who is signed in at GitHub would).
 */
final class WebFakes extends Dispatcher implements AutoCloseable {
  static final String HOSTILE_TITLE = "<img src=x onerror=alert(1)>";
  static final String REJECTED_KEY = "sk-rejected-by-the-provider";
  static final String GITHUB_EMAIL = "gina@example.org";
  static final String REVISED_SCHEDULE = "0 8,20 * * *";

  /** Who GitHub says signed in: its user id, login and verified primary address. */
  record GitHubUser(int id, String login, String email) {}

  static final GitHubUser GINA = new GitHubUser(777, "gina", GITHUB_EMAIL);

  /** Whom GitHub signs in next; a test that changes it sets it back. */
  final AtomicReference<GitHubUser> gitHubUser = new AtomicReference<>(GINA);

  final List<String> telegram = new CopyOnWriteArrayList<>();
  private final MockWebServer server = new MockWebServer();
  private final AtomicInteger published = new AtomicInteger();

  WebFakes() throws IOException {
    server.setDispatcher(this);
    server.start();
  }

  String base() {
    return "http://127.0.0.1:" + server.getPort();
  }

  String feedUrl() {
    return base() + "/feed/acme.xml";
  }

  /** Acme's site: a page naming its feed, as a blog's head does. */
  String siteUrl() {
    return base() + "/site/";
  }

  /** The service's settings for these upstreams (environment variables of the jar). */
  Map<String, String> env() {
    return Map.ofEntries(
        Map.entry("MODEL_PROVIDER", "openai"),
        Map.entry("MODEL_BASE_URL", base() + "/v1"),
        Map.entry("MODEL_NAME", "fake-model"),
        Map.entry("MODEL_API_KEYS", "sk-web-test-0001"),
        Map.entry("SEARCH_PROVIDER", "brave"),
        Map.entry("SEARCH_BASE_URL", base()),
        Map.entry("SEARCH_API_KEYS", "bk-web-test-0002"),
        Map.entry("TELEGRAM_BOT_TOKEN", "123:web-test"),
        Map.entry("TELEGRAM_CHAT_ID", "4242"),
        Map.entry("TELEGRAM_API_BASE_URL", base()),
        Map.entry("GITHUB_CLIENT_ID", "web-test-client"),
        Map.entry("GITHUB_CLIENT_SECRET", "web-test-client-secret"),
        Map.entry("GITHUB_WEB_BASE_URL", base()),
        Map.entry("GITHUB_API_BASE_URL", base()),
        Map.entry("FETCH_ALLOW_PRIVATE_NETWORKS", "true"));
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    HttpUrl url = request.getRequestUrl();
    String path = url.encodedPath();
    if (path.equals("/feed/acme.xml")) return feed();
    if (path.equals("/site/"))
      return new MockResponse()
          .setHeader("Content-Type", "text/html; charset=utf-8")
          .setBody(
              "<html><head><title>Acme</title><link rel=\"alternate\""
                  + " type=\"application/rss+xml\" title=\"Acme news\" href=\"/feed/acme.xml\">"
                  + "</head><body><h1>Acme</h1></body></html>");
    if (path.startsWith("/page/"))
      return new MockResponse()
          .setHeader("Content-Type", "text/html")
          .setBody(
              "<html><body><article><p>Acme announced that its first rocket launches on 1"
                  + " March.</p></article></body></html>");
    if (path.equals("/v1/models"))
      return String.valueOf(request.getHeader("Authorization")).contains(REJECTED_KEY)
          ? json(401, Map.of("error", Map.of("message", "Incorrect API key provided")))
          : json(200, Map.of("data", List.of(Map.of("id", "fake-model"))));
    if (path.equals("/v1/chat/completions")) return model(body(request));
    if (path.equals("/res/v1/web/search")) return search(url.queryParameter("q"));
    if (path.startsWith("/bot") && path.endsWith("/sendMessage")) {
      telegram.add(request.getBody().readUtf8());
      return json(200, Map.of("ok", true, "result", Map.of("message_id", telegram.size())));
    }
    if (path.equals("/login/oauth/authorize"))
      return new MockResponse()
          .setResponseCode(302)
          .setHeader(
              "Location",
              url.queryParameter("redirect_uri")
                  + "?code=approved&state="
                  + java.net.URLEncoder.encode(
                      url.queryParameter("state"), java.nio.charset.StandardCharsets.UTF_8));
    if (path.equals("/login/oauth/access_token"))
      return json(
          200, Map.of("access_token", "gho_web", "token_type", "bearer", "scope", "user:email"));
    GitHubUser user = gitHubUser.get();
    if (path.equals("/user")) return json(200, Map.of("id", user.id(), "login", user.login()));
    if (path.equals("/user/emails"))
      return json(200, List.of(Map.of("email", user.email(), "primary", true, "verified", true)));
    return new MockResponse().setResponseCode(404);
  }

  private static JsonNode body(RecordedRequest request) {
    try {
      return Json.parse(request.getBody().readByteArray());
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException("the service sent no JSON", e);
    }
  }

  private static String escaped(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  /** One new item per request, each with the hostile title. */
  private MockResponse feed() {
    int n = published.incrementAndGet();
    return new MockResponse()
        .setHeader("Content-Type", "application/rss+xml")
        .setBody(
            "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Acme news</title>"
                + "<link>https://example.org/</link><description>d</description><item><title>"
                // escaped for HTML, then for XML: a feed title is read as HTML, so this is how a
                // feed says that its title is these very characters
                + escaped(escaped(HOSTILE_TITLE))
                + "</title><link>"
                + base()
                + "/page/"
                + n
                + "</link><guid>acme-"
                + n
                + "</guid><pubDate>"
                // news: published now, inside any new watch's window
                + DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC))
                + "</pubDate><description>Launch news "
                + n
                + "</description></item></channel></rss>");
  }

  private MockResponse search(String query) {
    List<Map<String, Object>> results = new java.util.ArrayList<>();
    for (int i = 1; i <= 6; i++)
      results.add(
          Map.of(
              "title",
              "Result " + i + " for " + query,
              "url",
              "https://news" + i + ".example.org/acme/" + i,
              "description",
              "About " + query));
    return json(200, Map.of("web", Map.of("results", results)));
  }

  /** The tokens each model answer says it took. */
  static final int PROMPT_TOKENS = 1800;

  static final int ANSWER_TOKENS = 240;

  /** The answer each structured prompt asks for. */
  private MockResponse model(JsonNode request) {
    String schema = request.at("/response_format/json_schema/name").asText();
    String user = "";
    for (JsonNode m : request.path("messages"))
      if (m.path("role").asText().equals("user")) user = m.path("content").asText();
    Object answer =
        switch (schema) {
          case "verdict" -> verdict(user);
          case "draft" -> draft(user.contains("Previous draft:"));
          case "revision" -> revision();
          case "explanation" ->
              Map.of("explanation", "It looks for news of Acme's launch date twice a day.");
          default -> throw new IllegalArgumentException("no answer for " + schema);
        };
    return json(
        200,
        Map.of(
            "choices",
            List.of(Map.of("message", Map.of("role", "assistant", "content", Json.text(answer)))),
            "usage",
            Map.of("prompt_tokens", PROMPT_TOKENS, "completion_tokens", ANSWER_TOKENS)));
  }

  private Map<String, Object> verdict(String prompt) {
    java.util.regex.Matcher page =
        java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(base()) + "/page/\\d+")
            .matcher(prompt);
    List<Map<String, String>> evidence =
        page.find()
            ? List.of(Map.of("url", page.group(), "quote", "its first rocket launches on 1 March"))
            : List.of();
    return Map.of(
        "reasoning",
        "The item says the launch is on 1 March. " + HOSTILE_TITLE,
        "met",
        !evidence.isEmpty(),
        "confidence",
        evidence.isEmpty() ? 0.1 : 0.92,
        "summary",
        evidence.isEmpty() ? "Nothing about a date." : "Acme set its launch for 1 March.",
        "evidence",
        evidence);
  }

  /** The first draft, and the refined one (a second source, a lower threshold). */
  private Map<String, Object> draft(boolean refined) {
    List<Map<String, Object>> sources = new java.util.ArrayList<>();
    sources.add(source("search", "acme rocket launch date", "established", 7));
    if (refined) sources.add(source("rss", feedUrl(), "official", null));
    return Map.of(
        "name",
        "Acme launch",
        "condition",
        "Acme announces the date of its first rocket launch",
        "sources",
        sources,
        "schedule",
        "0 */6 * * *",
        "threshold",
        refined ? 0.7 : 0.8,
        "notes",
        refined ? "Added Acme's own feed, as asked." : "Checks the news four times a day.");
  }

  private static Map<String, Object> source(String type, String value, String trust, Integer days) {
    Map<String, Object> s = new java.util.HashMap<>();
    s.put("type", type);
    s.put("value", value);
    s.put("trust", trust);
    s.put("recencyDays", days);
    s.put("rationale", type.equals("rss") ? "Acme's own news." : "News sites report launch dates.");
    return s;
  }

  /** The watch the refined draft saved, checked twice a day. */
  private Map<String, Object> revision() {
    Map<String, Object> watch = new java.util.HashMap<>(draft(true));
    watch.remove("notes");
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> sources = (List<Map<String, Object>>) watch.get("sources");
    sources.forEach(s -> s.remove("rationale"));
    watch.put("schedule", REVISED_SCHEDULE);
    watch.put("weakThreshold", null);
    watch.put("enabled", true);
    watch.put("reasons", List.of(Map.of("field", "schedule", "why", "Twice a day, as you asked.")));
    return watch;
  }

  private static MockResponse json(int status, Object body) {
    return new MockResponse()
        .setResponseCode(status)
        .setHeader("Content-Type", "application/json")
        .setBody(Json.text(body));
  }

  @Override
  public void close() throws IOException {
    server.shutdown();
  }
}
