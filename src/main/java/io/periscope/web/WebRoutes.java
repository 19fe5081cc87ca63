package io.periscope.web;

import static org.apache.pekko.http.javadsl.server.Directives.*;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.pekko.http.javadsl.model.ContentType;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpCharsets;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpMethods;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.MediaTypes;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * The web client on the service's own port (docs/web.md): its assets under {@code /assets/<hash>/},
 * cached for good; the service worker at the root, so that its scope is the whole client; and
 * {@code index.html} for a browser's navigation to any other path that is not the interface's, so
 * that every client route can be opened, reloaded and bookmarked. A request to an interface path,
 * or one that does not ask for HTML (API clients, the conformance suite), is left to the
 * interface's routes and keeps their JSON answers (401, 404, …).
 */
public final class WebRoutes {
  private static final ContentType JAVASCRIPT =
      ContentTypes.create(MediaTypes.APPLICATION_JAVASCRIPT, HttpCharsets.UTF_8);
  private static final HttpHeader IMMUTABLE =
      RawHeader.create("Cache-Control", "public, max-age=31536000, immutable");
  private static final HttpHeader NO_CACHE = RawHeader.create("Cache-Control", "no-cache");

  private final WebAssets assets;
  private final List<HttpHeader> securityHeaders;

  public WebRoutes(WebAssets assets) {
    this.assets = assets;
    this.securityHeaders =
        List.of(
            RawHeader.create("Content-Security-Policy", assets.contentSecurityPolicy()),
            RawHeader.create("X-Content-Type-Options", "nosniff"),
            RawHeader.create("Referrer-Policy", "no-referrer"),
            RawHeader.create("X-Frame-Options", "DENY"));
  }

  /**
   * @param apiSegments the first path segments of the interface's routes ({@code watches}, {@code
   *     auth}, …), which a navigation never falls back from
   */
  public Route route(Set<String> apiSegments) {
    return extractRequest(
        request -> {
          if (request.method() != HttpMethods.GET && request.method() != HttpMethods.HEAD)
            return reject();
          String path = request.getUri().path();
          if (path.startsWith("/assets/")) return encodeResponse(() -> complete(asset(path)));
          if (path.equals("/" + WebAssets.SERVICE_WORKER))
            return encodeResponse(() -> complete(serviceWorker()));
          boolean clientPath = path.equals("/") || isNavigation(request);
          if (!clientPath || apiSegments.contains(firstSegment(path))) return reject();
          return encodeResponse(() -> complete(index()));
        });
  }

  /**
   * The metrics label of a request this client answered, as a route template: {@code
   * /assets/{file}}, the service worker's path, or {@code /{client-route}} for the page every
   * client route opens; empty for a request that is not the client's.
   */
  public static Optional<String> templateOf(HttpRequest request, HttpResponse response) {
    if (request.method() != HttpMethods.GET && request.method() != HttpMethods.HEAD)
      return Optional.empty();
    String path = request.getUri().path();
    if (path.startsWith("/assets/")) return Optional.of("/assets/{file}");
    if (path.equals("/" + WebAssets.SERVICE_WORKER)) return Optional.of(path);
    boolean page = response.entity().getContentType().mediaType().equals(MediaTypes.TEXT_HTML);
    return page ? Optional.of("/{client-route}") : Optional.empty();
  }

  /** What a browser sends when it opens a page (API clients ask for JSON or for anything). */
  private static boolean isNavigation(HttpRequest request) {
    return request
        .getHeader("Accept")
        .map(accept -> accept.value().contains("text/html"))
        .orElse(false);
  }

  private static String firstSegment(String path) {
    int end = path.indexOf('/', 1);
    return end < 0 ? path.substring(1) : path.substring(1, end);
  }

  private HttpResponse index() {
    return HttpResponse.create()
        .withEntity(HttpEntities.create(ContentTypes.TEXT_HTML_UTF8, assets.index()))
        .addHeaders(securityHeaders)
        .addHeader(NO_CACHE);
  }

  private HttpResponse serviceWorker() {
    return HttpResponse.create()
        .withEntity(
            HttpEntities.create(JAVASCRIPT, assets.file(WebAssets.SERVICE_WORKER).orElseThrow()))
        .addHeaders(securityHeaders)
        .addHeader(NO_CACHE);
  }

  /** An asset of this build; one of another build (an old page still open) is gone: 404. */
  private HttpResponse asset(String path) {
    String prefix = assets.assetsPath();
    Optional<byte[]> file =
        path.startsWith(prefix) ? assets.file(path.substring(prefix.length())) : Optional.empty();
    if (file.isEmpty())
      return HttpResponse.create()
          .withStatus(StatusCodes.NOT_FOUND)
          .withEntity(ContentTypes.TEXT_PLAIN_UTF8, "no such asset in this version of the client")
          .addHeaders(securityHeaders)
          .addHeader(NO_CACHE);
    return HttpResponse.create()
        .withEntity(HttpEntities.create(contentType(path), file.get()))
        .addHeaders(securityHeaders)
        .addHeader(IMMUTABLE);
  }

  private static ContentType contentType(String path) {
    if (path.endsWith(".js")) return JAVASCRIPT;
    if (path.endsWith(".css")) return ContentTypes.create(MediaTypes.TEXT_CSS, HttpCharsets.UTF_8);
    if (path.endsWith(".svg")) return ContentTypes.create(MediaTypes.IMAGE_SVG_XML);
    if (path.endsWith(".webmanifest") || path.endsWith(".json"))
      return ContentTypes.APPLICATION_JSON;
    return ContentTypes.APPLICATION_OCTET_STREAM;
  }
}
