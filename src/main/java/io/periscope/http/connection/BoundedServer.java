package io.periscope.http.connection;

import com.typesafe.config.Config;
import io.periscope.ratelimit.HeldSlots;
import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Predicate;
import org.apache.pekko.Done;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.IncomingConnection;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.javadsl.BidiFlow;
import org.apache.pekko.stream.javadsl.Flow;
import org.apache.pekko.stream.javadsl.Keep;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP interface on its port, every connection bounded ({@link Limits}): a client address holds
 * at most {@code perClient} connections at once (a connection past it is closed unanswered), and
 * each connection keeps the deadlines of {@link ConnectionDeadlines}. Pekko HTTP's own bounds stay
 * in force: {@code pekko.http.server.max-connections} for the node, {@code request-timeout} and
 * {@code idle-timeout} while a request is answered.
 *
 * <p>Connections from a trusted proxy are not capped: every client behind it shares its address,
 * and the proxy bounds its own clients.
 */
public final class BoundedServer {
  private static final Logger log = LoggerFactory.getLogger(BoundedServer.class);

  /**
   * {@code periscope.http.connections}: the deadlines of a connection and the connections a client
   * address may hold.
   */
  public record Limits(Duration headerRead, Duration keepAlive, Duration bodyRead, int perClient) {
    public static Limits from(Config config) {
      Config c = config.getConfig("periscope.http.connections");
      Limits limits =
          new Limits(
              c.getDuration("header-read-timeout"),
              c.getDuration("keep-alive-timeout"),
              c.getDuration("body-read-timeout"),
              c.getInt("per-client"));
      for (Duration d : new Duration[] {limits.headerRead, limits.keepAlive, limits.bodyRead}) {
        if (d.compareTo(Duration.ofSeconds(1)) < 0 || d.compareTo(Duration.ofMinutes(5)) > 0)
          throw new IllegalArgumentException(
              "periscope.http.connections: timeouts must be between 1s and 5m");
      }
      if (limits.perClient < 1)
        throw new IllegalArgumentException(
            "HTTP_CONNECTIONS_PER_CLIENT must be at least 1, not " + limits.perClient);
      return limits;
    }
  }

  private BoundedServer() {}

  /**
   * Serves {@code route} on {@code host:port} until the binding is unbound or terminated.
   *
   * @param uncapped the connection peers the per-client cap leaves alone (the trusted proxies)
   */
  public static CompletionStage<ServerBinding> bind(
      ActorSystem<?> system,
      String host,
      int port,
      Route route,
      Limits limits,
      Predicate<InetAddress> uncapped) {
    Materializer materializer = Materializer.matFromSystem(system);
    Flow<HttpRequest, HttpResponse, NotUsed> routes = route.flow(system);
    BidiFlow<HttpRequest, HttpRequest, HttpResponse, HttpResponse, NotUsed> deadlines =
        BidiFlow.fromGraph(
            new ConnectionDeadlines(limits.headerRead(), limits.keepAlive(), limits.bodyRead()));
    Flow<HttpRequest, HttpResponse, NotUsed> connectionHandler = deadlines.join(routes);
    HeldSlots<InetAddress> perClient = new HeldSlots<>(limits.perClient());
    Source<IncomingConnection, CompletionStage<ServerBinding>> connections =
        Http.get(system).newServerAt(host, port).connectionSource();
    int maxConnections = system.settings().config().getInt("pekko.http.server.max-connections");
    return connections
        .mapAsyncUnordered(
            maxConnections,
            connection -> {
              InetAddress peer = connection.remoteAddress().getAddress();
              boolean capped = !uncapped.test(peer);
              if (capped && !perClient.take(peer)) {
                log.debug("event=connection-refused reason=per-client-cap");
                connection.handleWith(
                    Flow.fromSinkAndSource(Sink.cancelled(), Source.empty()), materializer);
                return CompletableFuture.completedFuture(Done.getInstance());
              }
              CompletionStage<Done> closed =
                  connection
                      .flow()
                      .watchTermination(Keep.right())
                      .joinMat(connectionHandler, Keep.left())
                      .run(materializer);
              // On the thread that saw it close: Pekko's stages run even a plain handle() on the
              // default async executor, which on two cores starts a thread for each call.
              return closed.handleAsync(
                  (done, failure) -> {
                    if (capped) perClient.release(peer);
                    return Done.getInstance();
                  },
                  Runnable::run);
            })
        .to(Sink.ignore())
        .run(materializer);
  }
}
