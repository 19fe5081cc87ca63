package io.periscope.http;

import static org.apache.pekko.http.javadsl.server.Directives.*;

import io.periscope.auth.Principal;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.apache.pekko.http.javadsl.model.HttpMethod;
import org.apache.pekko.http.javadsl.server.Directives;
import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * One route of the interface: a method, a path template and its answer. A template is {@code /}-separated segments,
 * each a literal or a {@code {name}} that matches any one segment (OpenAPI's path templates, so the document's paths
 * are these very strings).
 *
 * <p>Every *Routes class routes by its list of endpoints and by nothing else, so that list is the truth of what the
 * service answers: Pekko's route trees cannot be listed, and the OpenAPI document is checked against these.
 *
 * @param accepts the values some parameters match (any value when a parameter is not named): a request whose segment
 *     is not accepted is not this route's, whatever its method (so it is a 404, not a 405)
 */
public record Endpoint(HttpMethod method, String path, Map<String, Predicate<String>> accepts, Answer answer) {
  private static final Pattern LITERAL = Pattern.compile("[A-Za-z0-9._-]+");
  private static final Pattern PARAMETER = Pattern.compile("\\{([A-Za-z][A-Za-z0-9]*)}");

  /** The answer to a request that matched: the caller (null on the public routes) and the path's parameters. */
  @FunctionalInterface
  public interface Answer {
    Route apply(Principal caller, Map<String, String> params);
  }

  public Endpoint {
    if (!path.startsWith("/")) throw new IllegalArgumentException("a path template starts with /: " + path);
    Set<String> names = new HashSet<>();
    for (String segment : segments(path)) {
      var parameter = PARAMETER.matcher(segment);
      boolean valid = parameter.matches() ? names.add(parameter.group(1)) : LITERAL.matcher(segment).matches();
      if (!valid) throw new IllegalArgumentException("not a path template segment: " + segment + " in " + path);
    }
    if (!names.containsAll(accepts.keySet())) throw new IllegalArgumentException("no such parameter in " + path);
    accepts = Map.copyOf(accepts);
  }

  /** An endpoint whose parameters match any segment. */
  public Endpoint(HttpMethod method, String path, Answer answer) {
    this(method, path, Map.of(), answer);
  }

  /** The first of {@code endpoints} whose path and method match answers; a path matched with another method: 405. */
  public static Route routes(List<Endpoint> endpoints, Principal caller) {
    Route[] routes = endpoints.stream().map(e -> e.route(caller)).toArray(Route[]::new);
    return concat(routes[0], Arrays.copyOfRange(routes, 1, routes.length));
  }

  Route route(Principal caller) {
    return matching(segments(path), 0, Map.of(), caller);
  }

  /** Segment {@code i} onwards, with the parameters matched so far; the path must end where the template does. */
  private Route matching(List<String> template, int i, Map<String, String> params, Principal caller) {
    if (i == template.size()) return pathEnd(() -> Directives.method(method, () -> answer.apply(caller, params)));
    String segment = template.get(i);
    if (!segment.startsWith("{")) return pathPrefix(segment, () -> matching(template, i + 1, params, caller));
    String name = segment.substring(1, segment.length() - 1);
    Predicate<String> accepted = accepts.getOrDefault(name, value -> true);
    return pathPrefix(PathMatchers.segment(), value -> {
      if (!accepted.test(value)) return reject();
      Map<String, String> more = new HashMap<>(params);
      more.put(name, value);
      return matching(template, i + 1, Map.copyOf(more), caller);
    });
  }

  private static List<String> segments(String path) {
    return List.of(path.substring(1).split("/", -1));
  }
}
