package io.periscope.http.connection;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.stream.Attributes;
import org.apache.pekko.stream.BidiShape;
import org.apache.pekko.stream.Inlet;
import org.apache.pekko.stream.Outlet;
import org.apache.pekko.stream.javadsl.Flow;
import org.apache.pekko.stream.stage.AbstractInHandler;
import org.apache.pekko.stream.stage.AbstractOutHandler;
import org.apache.pekko.stream.stage.AsyncCallback;
import org.apache.pekko.stream.stage.GraphStage;
import org.apache.pekko.stream.stage.TimerGraphStageLogic;
import org.apache.pekko.util.ByteString;

/**
 * The deadlines of one HTTP connection, between the connection and the routes. While no request is
 * being answered, the next request's headers must arrive within {@code headerRead} on a new
 * connection and within {@code keepAlive} after an answer; else the connection closes, a half-sent
 * request with it. A request's body must arrive whole within {@code bodyRead} of the route starting
 * to read it. A request being answered, an event stream included, is bounded by its route's own
 * timeout and by the server's idle timeout instead.
 *
 * <p>Hand-written because Pekko HTTP has neither deadline: its idle timeout counts bytes in either
 * direction, so it cannot tell a client that stalls from a route that takes minutes to answer.
 */
final class ConnectionDeadlines
    extends GraphStage<BidiShape<HttpRequest, HttpRequest, HttpResponse, HttpResponse>> {
  private final Duration headerRead;
  private final Duration keepAlive;
  private final Duration bodyRead;

  private final Inlet<HttpRequest> fromClient = Inlet.create("ConnectionDeadlines.fromClient");
  private final Outlet<HttpRequest> toRoutes = Outlet.create("ConnectionDeadlines.toRoutes");
  private final Inlet<HttpResponse> fromRoutes = Inlet.create("ConnectionDeadlines.fromRoutes");
  private final Outlet<HttpResponse> toClient = Outlet.create("ConnectionDeadlines.toClient");
  private final BidiShape<HttpRequest, HttpRequest, HttpResponse, HttpResponse> shape =
      BidiShape.of(fromClient, toRoutes, fromRoutes, toClient);

  ConnectionDeadlines(Duration headerRead, Duration keepAlive, Duration bodyRead) {
    this.headerRead = headerRead;
    this.keepAlive = keepAlive;
    this.bodyRead = bodyRead;
  }

  @Override
  public BidiShape<HttpRequest, HttpRequest, HttpResponse, HttpResponse> shape() {
    return shape;
  }

  @Override
  public TimerGraphStageLogic createLogic(Attributes attributes) {
    return new TimerGraphStageLogic(shape) {
      private static final String WAITING = "waiting";

      /** Requests taken whose answer has not been sent whole yet. */
      private int answering = 0;

      private final AsyncCallback<Object> answerSent = createAsyncCallback(done -> answered());

      @Override
      public void preStart() {
        scheduleOnce(WAITING, headerRead);
      }

      @Override
      public void onTimer(Object key) {
        if (answering == 0) completeStage(); // closes the connection
      }

      private void answered() {
        answering--;
        if (answering == 0) scheduleOnce(WAITING, keepAlive);
      }

      {
        setHandler(
            fromClient,
            new AbstractInHandler() {
              @Override
              public void onPush() {
                cancelTimer(WAITING);
                answering++;
                push(toRoutes, withBodyDeadline(grab(fromClient)));
              }

              // the requests end (the client closed, or a body failed its deadline): the routes
              // still answer those they took
              @Override
              public void onUpstreamFinish() {
                complete(toRoutes);
              }

              @Override
              public void onUpstreamFailure(Throwable e) {
                complete(toRoutes);
              }
            });
        setHandler(
            toRoutes,
            new AbstractOutHandler() {
              @Override
              public void onPull() {
                pull(fromClient);
              }
            });
        setHandler(
            fromRoutes,
            new AbstractInHandler() {
              @Override
              public void onPush() {
                HttpResponse response = grab(fromRoutes);
                if (response.entity().isStrict()) {
                  push(toClient, response);
                  answered();
                } else {
                  Flow<ByteString, ByteString, Object> watched =
                      Flow.<ByteString>create()
                          .watchTermination(
                              (mat, done) -> {
                                done.whenComplete((ok, e) -> answerSent.invoke(done));
                                return mat;
                              });
                  push(
                      toClient,
                      response.withEntity(
                          ((org.apache.pekko.http.scaladsl.model.ResponseEntity) response.entity())
                              .transformDataBytes(watched.asScala())));
                }
              }
            });
        setHandler(
            toClient,
            new AbstractOutHandler() {
              @Override
              public void onPull() {
                pull(fromRoutes);
              }
            });
      }
    };
  }

  /** The request, its streamed body failing if not read whole within {@link #bodyRead}. */
  private HttpRequest withBodyDeadline(HttpRequest request) {
    if (request.entity().isStrict()) return request;
    Flow<ByteString, ByteString, Object> bounded =
        Flow.<ByteString>create()
            .completionTimeout(bodyRead)
            .mapError(TimeoutException.class, e -> new SlowRequestBody(bodyRead))
            .mapMaterializedValue(notUsed -> notUsed);
    // the Java model has no transformDataBytes; every entity is also a Scala one, which has
    return request.withEntity(
        ((org.apache.pekko.http.scaladsl.model.RequestEntity) request.entity())
            .transformDataBytes(bounded.asScala()));
  }
}
