package io.periscope.http;

import static org.apache.pekko.http.javadsl.server.Directives.*;

import io.periscope.auth.Principal;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.apache.pekko.http.javadsl.model.HttpMethod;
import org.apache.pekko.http.javadsl.server.Rejection;
import org.apache.pekko.http.javadsl.server.Rejections;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * One route of the interface: a method, a path template and its answer. A template is {@code
 * /}-separated segments, each a literal or a {@code {name}} that matches any one segment (OpenAPI's
 * path templates, so the document's paths are these very strings).
 *
 * <p>Every *Routes class routes by its list of endpoints and by nothing else, so that list is the
 * truth of what the service answers: Pekko's route trees cannot be listed, and the OpenAPI document
 * is checked against these.
 *
 * @param accepts the values some parameters match (any value when a parameter is not named): a
 *     request whose segment is not accepted is not this route's, whatever its method (so it is a
 *     404, not a 405)
 */
public record Endpoint(
    HttpMethod method, String path, Map<String, Predicate<String>> accepts, Answer answer) {
  private static final Pattern LITERAL = Pattern.compile("[A-Za-z0-9._-]+");
  private static final Pattern PARAMETER = Pattern.compile("\\{([A-Za-z][A-Za-z0-9]*)}");

  /**
   * The answer to a request that matched: the caller (null on the public routes) and the path's
   * parameters.
   */
  @FunctionalInterface
  public interface Answer {
    Route apply(Principal caller, Map<String, String> params);
  }

  public Endpoint {
    if (!path.startsWith("/"))
      throw new IllegalArgumentException("a path template starts with /: " + path);
    Set<String> names = new HashSet<>();
    for (String segment : segments(path)) {
      var parameter = PARAMETER.matcher(segment);
      boolean valid =
          parameter.matches() ? names.add(parameter.group(1)) : LITERAL.matcher(segment).matches();
      if (!valid)
        throw new IllegalArgumentException(
            "not a path template segment: " + segment + " in " + path);
    }
    if (!names.containsAll(accepts.keySet()))
      throw new IllegalArgumentException("no such parameter in " + path);
    accepts = Map.copyOf(accepts);
  }

  /** An endpoint whose parameters match any segment. */
  public Endpoint(HttpMethod method, String path, Answer answer) {
    this(method, path, Map.of(), answer);
  }

  /**
   * Of two templates that match one path, the one with a literal segment where the other has a
   * parameter, at the first place they differ, answers first ({@code POST /watches/run-all} is no
   * watch's {@code /watches/{id}/...}): the order endpoints, or their groups, are listed in never
   * decides which answers.
   */
  static final Comparator<Endpoint> MOST_SPECIFIC_FIRST =
      (a, b) -> {
        List<String> as = segments(a.path);
        List<String> bs = segments(b.path);
        for (int i = 0; i < Math.min(as.size(), bs.size()); i++) {
          boolean aParameter = as.get(i).startsWith("{");
          boolean bParameter = bs.get(i).startsWith("{");
          if (aParameter != bParameter) return aParameter ? 1 : -1;
        }
        return 0;
      };

  /**
   * The most specific of {@code endpoints} whose path and method match answers; a path matched with
   * another method: 405. The request's path is compared with the templates as it comes, rather than
   * through a tree of path directives built for every request (docs/performance-log.md, "A request
   * built the whole route tree").
   */
  public static Route routes(List<Endpoint> endpoints, Principal caller) {
    return extractRequest(
        request -> {
          List<String> segments = decodedSegments(request.getUri().path());
          if (segments == null) return reject();
          List<Endpoint> matched = new ArrayList<>();
          List<Map<String, String>> matchedParams = new ArrayList<>();
          List<Rejection> otherMethods = new ArrayList<>();
          for (Endpoint endpoint : endpoints) {
            Map<String, String> params = endpoint.match(segments);
            if (params == null) continue;
            if (endpoint.method.equals(request.method())) {
              matched.add(endpoint);
              matchedParams.add(params);
            } else otherMethods.add(Rejections.method(endpoint.method));
          }
          if (!matched.isEmpty()) {
            Route[] answers =
                IntStream.range(0, matched.size())
                    .boxed()
                    .sorted(Comparator.comparing(matched::get, MOST_SPECIFIC_FIRST))
                    .map(i -> matched.get(i).answer.apply(caller, matchedParams.get(i)))
                    .toArray(Route[]::new);
            return concat(answers[0], Arrays.copyOfRange(answers, 1, answers.length));
          }
          if (otherMethods.isEmpty()) return reject();
          return reject(
              otherMethods.get(0),
              otherMethods.subList(1, otherMethods.size()).toArray(Rejection[]::new));
        });
  }

  /**
   * The most specific of {@code endpoints} that answers {@code method} on {@code rawPath}; empty
   * when none does.
   */
  static Optional<Endpoint> mostSpecific(
      List<Endpoint> endpoints, HttpMethod method, String rawPath) {
    List<String> segments = decodedSegments(rawPath);
    if (segments == null) return Optional.empty();
    return endpoints.stream()
        .filter(e -> e.method.equals(method) && e.match(segments) != null)
        .min(MOST_SPECIFIC_FIRST);
  }

  /**
   * The template of the endpoint that answers the request (the most specific that matches its path
   * and method), for metrics; empty when none does.
   */
  static Optional<String> templateOf(
      List<Endpoint> endpoints, org.apache.pekko.http.javadsl.model.HttpRequest request) {
    return mostSpecific(endpoints, request.method(), request.getUri().path()).map(Endpoint::path);
  }

  /**
   * This template's parameters when the request's path (its decoded segments) is this template's,
   * else null.
   */
  Map<String, String> match(List<String> segments) {
    Map<String, String> params = new HashMap<>();
    int start = 1; // of the template's next segment
    for (String value : segments) {
      if (start > path.length()) return null;
      int end = path.indexOf('/', start);
      if (end < 0) end = path.length();
      if (path.charAt(start) == '{') {
        String name = path.substring(start + 1, end - 1);
        if (value.isEmpty() || !accepts.getOrDefault(name, any -> true).test(value)) return null;
        params.put(name, value);
      } else if (end - start != value.length() || !path.startsWith(value, start)) {
        return null;
      }
      start = end + 1;
    }
    return start > path.length() ? params : null;
  }

  /** The segments of a request path, percent-decoded as UTF-8; null when one does not decode. */
  static List<String> decodedSegments(String rawPath) {
    if (!rawPath.startsWith("/")) return null;
    List<String> segments = new ArrayList<>();
    for (String raw : rawPath.substring(1).split("/", -1)) {
      try {
        segments.add(
            URLDecoder.decode(
                raw.replace("+", "%2B"), StandardCharsets.UTF_8)); // '+' is no space in a path
      } catch (IllegalArgumentException malformed) {
        return null;
      }
    }
    return segments;
  }

  private static List<String> segments(String path) {
    return List.of(path.substring(1).split("/", -1));
  }
}
