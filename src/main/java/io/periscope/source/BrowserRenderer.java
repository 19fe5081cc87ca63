package io.periscope.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.periscope.json.Json;
import io.periscope.net.AddressGuard;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Renders a page in the operator's headless browser through the Chrome DevTools Protocol ({@code
 * BROWSER_URL}, e.g. Chromium started with {@code --remote-debugging-port}) and answers its HTML
 * once loaded and its scripts had {@link #SETTLE} to run. Each render opens a tab of its own and
 * closes it. Every request the page makes is held by the protocol's Fetch domain and goes on only
 * when its address passes {@link AddressGuard} (unless private networks are allowed), as every
 * fetch of a user's URL does; one render at a time per node, bounded in time.
 */
public final class BrowserRenderer {
  static final Duration TIMEOUT = Duration.ofSeconds(30);
  static final Duration SETTLE = Duration.ofMillis(1500);
  private static final Set<String> INERT_SCHEMES = Set.of("data", "blob", "about");

  /** The browser did not answer, or the page could not be rendered. */
  public static final class RenderFailure extends RuntimeException {
    RenderFailure(String message) {
      super(message);
    }
  }

  private final URI endpoint;
  private final boolean allowPrivateNetworks;
  private final HttpClient client;
  private final Semaphore oneAtATime = new Semaphore(1);

  /**
   * @param endpoint the DevTools HTTP endpoint, e.g. {@code http://127.0.0.1:9222}
   */
  public BrowserRenderer(URI endpoint, boolean allowPrivateNetworks) {
    this.endpoint = endpoint;
    this.allowPrivateNetworks = allowPrivateNetworks;
    this.client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  }

  /** The renderer of {@code BROWSER_URL}; none when it is blank (the default). */
  public static Optional<BrowserRenderer> of(String browserUrl, boolean allowPrivateNetworks) {
    if (browserUrl == null || browserUrl.isBlank()) return Optional.empty();
    return Optional.of(new BrowserRenderer(URI.create(browserUrl.strip()), allowPrivateNetworks));
  }

  /** The page's HTML as rendered, at most {@code maxChars} characters. */
  public CompletionStage<String> render(String url, int maxChars) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            if (!oneAtATime.tryAcquire(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
              throw new RenderFailure("the headless browser is busy");
            try {
              return new Session(url, maxChars).run();
            } finally {
              oneAtATime.release();
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RenderFailure("interrupted");
          }
        });
  }

  /** Why the page may not request {@code url}; empty when it may. */
  Optional<String> refusal(String url) {
    URI uri;
    try {
      uri = URI.create(url);
    } catch (IllegalArgumentException e) {
      return Optional.of("not a URL");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase();
    if (INERT_SCHEMES.contains(scheme)) return Optional.empty();
    if (!scheme.equals("http") && !scheme.equals("https")) return Optional.of("scheme " + scheme);
    if (allowPrivateNetworks) return Optional.empty();
    String host = uri.getHost();
    if (host == null) return Optional.of("no host");
    if (host.startsWith("[") || host.matches("[\\d.]+")) return AddressGuard.refusalOfLiteral(host);
    try {
      for (InetAddress address : InetAddress.getAllByName(host)) {
        Optional<String> refused = AddressGuard.refusal(address);
        if (refused.isPresent()) return refused;
      }
      return Optional.empty();
    } catch (UnknownHostException e) {
      return Optional.of("unknown host");
    }
  }

  /** One render: a tab of its own, its requests guarded, its HTML read once it settled. */
  private final class Session implements WebSocket.Listener {
    private final String url;
    private final int maxChars;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> replies = new ConcurrentHashMap<>();
    private final CompletableFuture<Void> loaded = new CompletableFuture<>();
    private final StringBuilder partial = new StringBuilder();
    private WebSocket socket;
    private volatile String sessionId;

    Session(String url, int maxChars) {
      this.url = url;
      this.maxChars = maxChars;
    }

    String run() {
      Optional<String> refused = refusal(url);
      if (refused.isPresent())
        throw new RenderFailure("the address is not allowed (" + refused.get() + ")");
      socket = client.newWebSocketBuilder().buildAsync(debuggerUrl(), this).join();
      String target = null;
      try {
        target =
            call(null, "Target.createTarget", Map.of("url", "about:blank"))
                .path("targetId")
                .asText();
        sessionId =
            call(null, "Target.attachToTarget", Map.of("targetId", target, "flatten", true))
                .path("sessionId")
                .asText();
        call(sessionId, "Fetch.enable", Map.of());
        call(sessionId, "Page.enable", Map.of());
        JsonNode navigated = call(sessionId, "Page.navigate", Map.of("url", url));
        if (navigated.hasNonNull("errorText"))
          throw new RenderFailure(
              "the browser could not load the page: " + navigated.get("errorText").asText());
        loaded.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        Thread.sleep(SETTLE.toMillis());
        JsonNode html =
            call(
                sessionId,
                "Runtime.evaluate",
                Map.of(
                    "expression",
                    "document.documentElement.outerHTML.slice(0, " + maxChars + ")",
                    "returnByValue",
                    true));
        return html.path("result").path("value").asText("");
      } catch (java.util.concurrent.TimeoutException e) {
        throw new RenderFailure("the page did not load within " + TIMEOUT.toSeconds() + " s");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RenderFailure("interrupted");
      } catch (java.util.concurrent.ExecutionException e) {
        throw new RenderFailure("the browser failed: " + e.getCause().getMessage());
      } finally {
        if (target != null) send(null, "Target.closeTarget", Map.of("targetId", target));
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done");
      }
    }

    /** The browser's WebSocket, from its {@code /json/version}. */
    private URI debuggerUrl() {
      try {
        HttpResponse<String> version =
            client.send(
                HttpRequest.newBuilder(endpoint.resolve("/json/version")).timeout(TIMEOUT).build(),
                HttpResponse.BodyHandlers.ofString());
        return URI.create(
            Json.MAPPER.readTree(version.body()).path("webSocketDebuggerUrl").asText());
      } catch (Exception e) {
        if (e instanceof InterruptedException) Thread.currentThread().interrupt();
        throw new RenderFailure("the headless browser (BROWSER_URL) does not answer");
      }
    }

    private JsonNode call(String session, String method, Map<String, Object> params)
        throws InterruptedException,
            java.util.concurrent.ExecutionException,
            java.util.concurrent.TimeoutException {
      JsonNode reply = send(session, method, params).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      if (reply.has("error"))
        throw new RenderFailure(
            method + " failed: " + reply.path("error").path("message").asText());
      return reply.path("result");
    }

    private CompletableFuture<JsonNode> send(
        String session, String method, Map<String, Object> params) {
      int id = ids.incrementAndGet();
      CompletableFuture<JsonNode> reply = new CompletableFuture<>();
      replies.put(id, reply);
      ObjectNode message = Json.MAPPER.createObjectNode().put("id", id).put("method", method);
      message.set("params", Json.MAPPER.valueToTree(params));
      if (session != null) message.put("sessionId", session);
      synchronized (this) {
        socket.sendText(message.toString(), true).join();
      }
      return reply;
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        String text = partial.toString();
        partial.setLength(0);
        try {
          received(Json.MAPPER.readTree(text));
        } catch (Exception e) {
          loaded.completeExceptionally(e);
        }
      }
      webSocket.request(1);
      return null;
    }

    private void received(JsonNode message) {
      if (message.has("id")) {
        CompletableFuture<JsonNode> reply = replies.remove(message.get("id").asInt());
        if (reply != null) reply.complete(message);
        return;
      }
      String method = message.path("method").asText();
      JsonNode params = message.path("params");
      if (method.equals("Page.loadEventFired")) loaded.complete(null);
      if (method.equals("Fetch.requestPaused")) {
        String requestId = params.path("requestId").asText();
        String requested = params.path("request").path("url").asText();
        // Answered off the listener's thread: the address check may ask DNS.
        CompletableFuture.runAsync(
            () -> {
              if (refusal(requested).isPresent())
                send(
                    sessionId,
                    "Fetch.failRequest",
                    Map.of("requestId", requestId, "errorReason", "BlockedByClient"));
              else send(sessionId, "Fetch.continueRequest", Map.of("requestId", requestId));
            });
      }
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
      loaded.completeExceptionally(error);
      replies.values().forEach(r -> r.completeExceptionally(error));
    }
  }
}
