package io.periscope.http;

import static org.apache.pekko.http.javadsl.model.HttpMethods.GET;
import static org.apache.pekko.http.javadsl.server.Directives.complete;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpResponse;

/**
 * GET /openapi.json: the interface's OpenAPI 3.1 document, for every signed-in caller. The document
 * is a maintained source file ({@code src/main/resources/io/periscope/http/openapi.json}) served as
 * it is written; the tests check it against the official schema and against every route's {@link
 * Endpoint}.
 */
public final class OpenApiRoutes implements Routes {
  static final String DOCUMENT = "openapi.json";

  private final byte[] document = load();

  @Override
  public List<Endpoint> endpoints() {
    return List.of(
        new Endpoint(
            GET,
            "/openapi.json",
            (caller, p) ->
                complete(
                    HttpResponse.create()
                        .withEntity(
                            HttpEntities.create(ContentTypes.APPLICATION_JSON, document)))));
  }

  /** The document's bytes, read once: a jar without it does not start. */
  static byte[] load() {
    try (InputStream in = OpenApiRoutes.class.getResourceAsStream(DOCUMENT)) {
      if (in == null) throw new IllegalStateException(DOCUMENT + " is missing from the jar");
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
