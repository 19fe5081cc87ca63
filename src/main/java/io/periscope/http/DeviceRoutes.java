package io.periscope.http;

import static io.periscope.entity.Refusal.Kind.CONFLICT;
import static io.periscope.entity.Refusal.Kind.NOT_FOUND;
import static io.periscope.http.ApiDirectives.answer;
import static io.periscope.http.ApiDirectives.jsonBody;
import static io.periscope.http.Reply.json;
import static io.periscope.http.Reply.ok;
import static org.apache.pekko.http.javadsl.model.HttpMethods.DELETE;
import static org.apache.pekko.http.javadsl.model.HttpMethods.GET;
import static org.apache.pekko.http.javadsl.model.HttpMethods.POST;
import static org.apache.pekko.http.javadsl.server.Directives.*;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.devices.Device;
import io.periscope.devices.DeviceValidator;
import io.periscope.devices.DevicesEntity;
import io.periscope.devices.Vapid;
import io.periscope.entity.Asks;
import io.periscope.entity.Refusal;
import io.periscope.runtime.Entities;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;
import org.apache.pekko.http.javadsl.model.StatusCodes;

/**
 * /devices: the caller's Web Push subscriptions (registered, listed, removed) and the VAPID public
 * key a browser subscribes with. Devices live in the caller's own entity, so another owner's are
 * never reachable. Device ids are {@code d} and 16 hex digits, so none is ever {@code
 * vapid-public-key}.
 */
public final class DeviceRoutes implements Routes {
  private final Entities entities;
  private final Asks asks;
  private final Vapid vapid;
  private final Clock clock;
  private final long maxBody;

  public DeviceRoutes(Entities entities, Asks asks, Vapid vapid, Clock clock, long maxBody) {
    this.entities = entities;
    this.asks = asks;
    this.vapid = vapid;
    this.clock = clock;
    this.maxBody = maxBody;
  }

  /** The body of GET /devices, in registration order. */
  public record DeviceList(List<Device.View> devices) {}

  /**
   * The body of GET /devices/vapid-public-key: the browser's {@code applicationServerKey},
   * base64url.
   */
  public record VapidPublicKey(String publicKey) {}

  @Override
  public List<Endpoint> endpoints() {
    return List.of(
        new Endpoint(
            GET,
            "/devices",
            (caller, p) ->
                answer(
                    devices(caller.accountId())
                        .thenApply(
                            all -> ok(new DeviceList(all.stream().map(Device::view).toList()))))),
        new Endpoint(
            POST,
            "/devices",
            (caller, p) -> jsonBody(maxBody, body -> answer(register(caller.accountId(), body)))),
        new Endpoint(
            GET,
            "/devices/vapid-public-key",
            (caller, p) ->
                answer(vapid.keys().thenApply(keys -> ok(new VapidPublicKey(keys.publicKey()))))),
        new Endpoint(
            GET,
            "/devices/{id}",
            (caller, p) ->
                answer(
                    devices(caller.accountId())
                        .thenApply(
                            all ->
                                all.stream()
                                    .filter(d -> d.id().equals(p.get("id")))
                                    .findFirst()
                                    .map(d -> ok(d.view()))
                                    .orElseThrow(DeviceRoutes::noSuchDevice)))),
        new Endpoint(
            DELETE,
            "/devices/{id}",
            (caller, p) -> answer(remove(caller.accountId(), p.get("id")))));
  }

  private CompletionStage<List<Device>> devices(String accountId) {
    return asks.<DevicesEntity.Command, DevicesEntity.Devices>ask(
            entities.devices(accountId), DevicesEntity.GetDevices::new)
        .thenApply(DevicesEntity.Devices::devices);
  }

  /**
   * 201 for a new device, 200 when the endpoint was registered already (that device is updated).
   */
  private CompletionStage<Reply> register(String accountId, JsonNode body) {
    DeviceValidator.Subscription subscription = DeviceValidator.validate(body);
    return asks.<DevicesEntity.Command, DevicesEntity.Registered>ask(
            entities.devices(accountId),
            r -> new DevicesEntity.Register(subscription, clock.instant(), r))
        .thenApply(
            registered ->
                json(
                    registered.created() ? StatusCodes.CREATED : StatusCodes.OK,
                    registered.device().view()))
        .exceptionally(Refusal.as(CONFLICT));
  }

  private CompletionStage<Reply> remove(String accountId, String id) {
    return asks.<DevicesEntity.Command, Done>ask(
            entities.devices(accountId), r -> new DevicesEntity.Remove(id, r))
        .thenApply(done -> Reply.noContent())
        .exceptionally(Refusal.as(NOT_FOUND, DEVICE_NOT_FOUND));
  }

  private static final String DEVICE_NOT_FOUND = "device not found";

  private static Refusal noSuchDevice() {
    return new Refusal(NOT_FOUND, DEVICE_NOT_FOUND);
  }
}
