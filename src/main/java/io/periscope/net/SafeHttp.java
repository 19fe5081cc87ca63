package io.periscope.net;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.Proxy;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Dns;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.ResponseBody;
import okio.BufferedSource;

/**
 * The one HTTP client for user-supplied URLs (feeds, article pages, webhooks). Every address a
 * request would connect to passes {@link AddressGuard} first (unless private networks are allowed),
 * redirects are followed by hand so each hop is checked again, and every call is bounded in bytes
 * and time; the connections themselves are made through {@link GuardedSocketFactory}, which no path
 * skips. Failures complete the stage with a {@link FetchFailure}. {@link #guardedClient()} carries
 * the same guard for senders that POST.
 */
public final class SafeHttp {
  public static final int MAX_REDIRECTS = 5;
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(10);

  /** Overall deadline of one {@code get} (all its redirects) or {@code postJson}, body included. */
  public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(20);

  private static final String USER_AGENT = "Periscope/0.1";
  // What OkHttp itself treats as an IP literal (and then connects to without asking the Dns).
  private static final Pattern IP_LITERAL =
      Pattern.compile("([0-9a-fA-F]*:[0-9a-fA-F:.]*)|([\\d.]+)");
  private static final List<String> CREDENTIAL_HEADERS =
      List.of("Authorization", "Cookie", "Proxy-Authorization");

  /** A final answer: a 2xx, or a 304 to a conditional GET. */
  public record Response(int status, Headers headers, byte[] body, String finalUrl) {
    /** The first value of a response header, null when absent. */
    public String header(String name) {
      return headers.get(name);
    }
  }

  /**
   * Thrown from the Dns so OkHttp fails the call before connecting; an IOException, as OkHttp
   * expects.
   */
  private static final class RefusedAddress extends UnknownHostException {
    RefusedAddress(String message) {
      super(message);
    }
  }

  private final OkHttpClient client;
  private final Predicate<InetAddress> exempt;
  private final Duration callTimeout;

  public SafeHttp(boolean allowPrivateNetworks) {
    this(allowPrivateNetworks, DEFAULT_CONNECT_TIMEOUT, DEFAULT_READ_TIMEOUT, DEFAULT_CALL_TIMEOUT);
  }

  public SafeHttp(
      boolean allowPrivateNetworks,
      Duration connectTimeout,
      Duration readTimeout,
      Duration callTimeout) {
    this(address -> allowPrivateNetworks, connectTimeout, readTimeout, callTimeout);
  }

  /**
   * {@code exempt}: addresses the guard lets through (all of them when private networks are
   * allowed).
   */
  SafeHttp(
      Predicate<InetAddress> exempt,
      Duration connectTimeout,
      Duration readTimeout,
      Duration callTimeout) {
    this.exempt = exempt;
    this.callTimeout = callTimeout;
    this.client =
        new OkHttpClient.Builder()
            .dns(this::lookup)
            .socketFactory(new GuardedSocketFactory(exempt))
            // A proxy would make OkHttp resolve the proxy instead of the target, and the guard
            // would check the wrong host.
            .proxy(Proxy.NO_PROXY)
            .followRedirects(false)
            .followSslRedirects(false)
            .connectTimeout(connectTimeout)
            .readTimeout(readTimeout)
            .writeTimeout(readTimeout)
            .dispatcher(UpstreamDispatcher.create("safe-http"))
            // Kept connections are shared by every call of this client and of the senders built
            // from guardedClient() (one Dns, one socket factory: one pool key per host and port).
            // A kept connection is not looked up again, and need not be: GuardedSocketFactory
            // connected its socket to an address the guard accepted, and it stays there. A host
            // that now resolves elsewhere is reached through the pool only at the address that
            // was checked; a new connection resolves again and is checked again.
            .connectionPool(ConnectionPools.create())
            .build();
  }

  /** GET with the default overall deadline. */
  public CompletionStage<Response> get(String url, Map<String, String> headers, long maxBytes) {
    return get(url, headers, maxBytes, callTimeout);
  }

  /** GET following at most {@link #MAX_REDIRECTS} redirects, all of it within {@code timeout}. */
  public CompletionStage<Response> get(
      String url, Map<String, String> headers, long maxBytes, Duration timeout) {
    CompletableFuture<Response> result = new CompletableFuture<>();
    try {
      HttpUrl first = checked(url, HttpUrl.parse(url));
      getHop(
          first, Headers.of(headers), maxBytes, System.nanoTime() + timeout.toNanos(), 0, result);
    } catch (FetchFailure refused) {
      result.completeExceptionally(refused);
    } catch (IllegalArgumentException badHeader) {
      result.completeExceptionally(unsendableHeader());
    }
    return result;
  }

  /**
   * Whether anything answers HTTP at {@code url}: completes with the status of the first answer to
   * a HEAD request, whatever it is (a redirect is not followed, an error status is still an
   * answer), within {@code timeout}; fails with a {@link FetchFailure} when the guard refuses the
   * address or nothing answers. The body is never read.
   */
  public CompletionStage<Integer> firstAnswer(String url, Duration timeout) {
    CompletableFuture<Integer> result = new CompletableFuture<>();
    HttpUrl target;
    try {
      target = checked(url, HttpUrl.parse(url));
    } catch (FetchFailure refused) {
      result.completeExceptionally(refused);
      return result;
    }
    send(
        new Request.Builder().url(target).headers(withUserAgent(Headers.of())).head().build(),
        timeout.toNanos(),
        result,
        response -> result.complete(response.code()));
    return result;
  }

  /**
   * A client for POSTs to user-supplied URLs (webhooks, ntfy, Slack, Discord, Web Push): no
   * redirects, and the same guard on every connection it makes, IP-literal hosts included.
   */
  public OkHttpClient guardedClient() {
    return client;
  }

  /**
   * Why the guard refused the address a failed call would have connected to; empty for any other
   * failure.
   */
  public static Optional<String> refusal(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof RefusedAddress || t instanceof GuardedSocketFactory.RefusedConnection)
        return Optional.of(t.getMessage());
    }
    return Optional.empty();
  }

  private void getHop(
      HttpUrl url,
      Headers headers,
      long maxBytes,
      long deadline,
      int redirects,
      CompletableFuture<Response> result) {
    long remaining = deadline - System.nanoTime();
    if (remaining <= 0) {
      result.completeExceptionally(timedOut(url));
      return;
    }
    Request request = new Request.Builder().url(url).headers(withUserAgent(headers)).get().build();
    send(
        request,
        remaining,
        result,
        response -> {
          int status = response.code();
          if (!isRedirect(status)) {
            if (!response.isSuccessful() && status != 304) {
              throw new FetchFailure(
                  FetchFailure.Kind.HTTP, status, url.host() + " answered HTTP " + status);
            }
            result.complete(
                new Response(
                    status,
                    response.headers(),
                    bounded(response.body(), maxBytes, url),
                    url.toString()));
            return;
          }
          HttpUrl next = redirectTarget(url, status, response.header("Location"), redirects);
          Headers nextHeaders = sameOrigin(url, next) ? headers : withoutCredentials(headers);
          getHop(next, nextHeaders, maxBytes, deadline, redirects + 1, result);
        });
  }

  /**
   * What to do with an answer; throwing fails the call ({@link FetchFailure} as it is, I/O as a
   * failure).
   */
  private interface Answer {
    void take(okhttp3.Response response) throws IOException;
  }

  /**
   * Sends {@code request} within {@code timeoutNanos}, closing the answer after {@code answer} took
   * it.
   */
  private void send(
      Request request, long timeoutNanos, CompletableFuture<?> result, Answer answer) {
    Call call = client.newCall(request);
    call.timeout().timeout(timeoutNanos, TimeUnit.NANOSECONDS);
    call.enqueue(
        new Callback() {
          @Override
          public void onFailure(Call call, IOException e) {
            result.completeExceptionally(failure(request.url(), e));
          }

          @Override
          public void onResponse(Call call, okhttp3.Response response) {
            try (response) {
              answer.take(response);
            } catch (FetchFailure f) {
              result.completeExceptionally(f);
            } catch (IOException e) {
              result.completeExceptionally(failure(request.url(), e));
            }
          }
        });
  }

  private HttpUrl redirectTarget(HttpUrl from, int status, String location, int redirects) {
    if (location == null || location.isBlank()) {
      throw new FetchFailure(
          FetchFailure.Kind.HTTP, status, from.host() + " redirected without a Location");
    }
    if (redirects >= MAX_REDIRECTS) {
      throw new FetchFailure(
          FetchFailure.Kind.HTTP, status, "more than " + MAX_REDIRECTS + " redirects");
    }
    return checked(location, from.resolve(location));
  }

  /**
   * Refuses what the guard can judge before any connection: a scheme other than http(s) and an
   * IP-literal host (OkHttp connects to literals without asking the Dns). {@code url} is null when
   * OkHttp could not parse it.
   */
  private HttpUrl checked(String written, HttpUrl url) {
    if (url == null)
      throw new FetchFailure(FetchFailure.Kind.REFUSED, null, "not an http or https URL");
    String host = url.host();
    if (IP_LITERAL.matcher(host).matches()) {
      refuseLiteral(host, url);
      // OkHttp rewrites an IPv4-mapped literal as plain IPv4: judge the literal as written too.
      rawBracketedHost(written).ifPresent(raw -> refuseLiteral(raw, url));
    }
    return url;
  }

  private void refuseLiteral(String literal, HttpUrl url) {
    Optional<String> refusal = AddressGuard.refusalOfLiteral(literal);
    // Only a literal the guard could parse may be exempt: anything else would make Java ask DNS for
    // it.
    boolean exempted = AddressGuard.parseLiteral(literal).map(exempt::test).orElse(false);
    if (refusal.isPresent() && !exempted) {
      throw new FetchFailure(
          FetchFailure.Kind.REFUSED, null, url.host() + " is a " + refusal.get() + " address");
    }
  }

  private static Optional<String> rawBracketedHost(String written) {
    try {
      String host = new URI(written).getHost();
      return host != null && host.startsWith("[") ? Optional.of(host) : Optional.empty();
    } catch (URISyntaxException e) {
      return Optional.empty();
    }
  }

  private List<InetAddress> lookup(String hostname) throws UnknownHostException {
    List<InetAddress> addresses = Dns.SYSTEM.lookup(hostname);
    for (InetAddress address : addresses) {
      if (exempt.test(address)) continue;
      Optional<String> refusal = AddressGuard.refusal(address);
      if (refusal.isPresent()) {
        // The address itself stays out of the message: the URL's owner need not learn the internal
        // network.
        throw new RefusedAddress(hostname + " resolves to a " + refusal.get() + " address");
      }
    }
    return addresses;
  }

  private static byte[] bounded(ResponseBody body, long maxBytes, HttpUrl url) throws IOException {
    if (body.contentLength() > maxBytes) throw tooLarge(url, maxBytes);
    BufferedSource source = body.source();
    if (source.request(maxBytes + 1))
      throw tooLarge(url, maxBytes); // stops reading right past the limit
    return source.readByteArray();
  }

  private static byte[] prefix(ResponseBody body, int maxBytes) throws IOException {
    BufferedSource source = body.source();
    source.request(maxBytes);
    return source.getBuffer().readByteArray(Math.min(maxBytes, source.getBuffer().size()));
  }

  private static FetchFailure tooLarge(HttpUrl url, long maxBytes) {
    return new FetchFailure(
        FetchFailure.Kind.TOO_LARGE, null, url.host() + " sent more than " + maxBytes + " bytes");
  }

  /**
   * OkHttp's own message quotes the offending value, which may be a webhook's secret: not repeated
   * here.
   */
  private static IllegalArgumentException unsendableHeader() {
    return new IllegalArgumentException("a request header name or value cannot be sent over HTTP");
  }

  private static FetchFailure timedOut(HttpUrl url) {
    return new FetchFailure(
        FetchFailure.Kind.TIMEOUT, null, url.host() + " did not answer in time");
  }

  private static FetchFailure failure(HttpUrl url, IOException e) {
    if (unresolved(e)) return unresolvableOrRefused(url);
    Optional<String> refused = refusal(e);
    if (refused.isPresent())
      return new FetchFailure(FetchFailure.Kind.REFUSED, null, refused.get());
    if (e instanceof InterruptedIOException) return timedOut(url);
    return new FetchFailure(
        FetchFailure.Kind.UNREACHABLE,
        null,
        "could not reach " + url.host() + " (" + e.getClass().getSimpleName() + ")");
  }

  /**
   * A name that does not resolve and one that resolves to an address the guard refuses get the one
   * answer: a source error must not tell whether an internal host name exists.
   */
  private static FetchFailure unresolvableOrRefused(HttpUrl url) {
    return new FetchFailure(
        FetchFailure.Kind.REFUSED,
        null,
        url.host() + " was not fetched: refused, or not resolvable from here");
  }

  /** DNS had no address for the name, or the guard refused the addresses it had. */
  private static boolean unresolved(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof UnknownHostException) return true;
    }
    return false;
  }

  private static boolean isRedirect(int status) {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
  }

  private static boolean sameOrigin(HttpUrl a, HttpUrl b) {
    return a.scheme().equals(b.scheme()) && a.host().equals(b.host()) && a.port() == b.port();
  }

  private static Headers withoutCredentials(Headers headers) {
    Headers.Builder builder = headers.newBuilder();
    CREDENTIAL_HEADERS.forEach(builder::removeAll);
    return builder.build();
  }

  private static Headers withUserAgent(Headers headers) {
    return headers.get("User-Agent") != null
        ? headers
        : headers.newBuilder().add("User-Agent", USER_AGENT).build();
  }
}
