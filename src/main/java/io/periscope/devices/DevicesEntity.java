package io.periscope.devices;

import io.periscope.entity.JournaledEntity;
import io.periscope.entity.JsonSerializable;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;

/**
 * One owner's devices (entity id = account id), in registration order. A subscription is identified
 * by its endpoint: registering the same endpoint again updates that device (its name and keys) and
 * keeps its id, so a browser that re-subscribes does not become a second device. Ids are random,
 * given here.
 */
public final class DevicesEntity
    extends JournaledEntity<DevicesEntity.Command, DevicesEntity.Event, DevicesEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "Devices");

  /**
   * How a service reaches this entity: an owner's devices. Sharded when serving, a local actor for
   * the command line; a service is handed only the lookups of the entities it asks.
   */
  @FunctionalInterface
  public interface Refs {
    RecipientRef<Command> devices(String accountId);
  }

  /** Devices an owner may register: each alert is one request per device. */
  public static final int MAX_DEVICES = 20;

  public static final String REMOVED_BY_OWNER = "owner";

  /** The push service answered 404 or 410: the subscription no longer exists. */
  public static final String REMOVED_AS_GONE = "gone";

  // ---- state
  // -------------------------------------------------------------------------------------

  public record State(List<Device> devices) implements JsonSerializable {
    public State {
      devices = List.copyOf(devices);
    }

    Optional<Device> byId(String id) {
      return devices.stream().filter(d -> d.id().equals(id)).findFirst();
    }

    Optional<Device> byEndpoint(String endpoint) {
      return devices.stream().filter(d -> d.endpoint().equals(endpoint)).findFirst();
    }

    /** Replaces the device with the same id in place, or appends it. */
    State with(Device device) {
      return byId(device.id()).isPresent()
          ? new State(devices.stream().map(d -> d.id().equals(device.id()) ? device : d).toList())
          : new State(Stream.concat(devices.stream(), Stream.of(device)).toList());
    }

    State without(String id) {
      return new State(devices.stream().filter(d -> !d.id().equals(id)).toList());
    }
  }

  public record Devices(List<Device> devices) implements JsonSerializable {
    public Devices {
      devices = List.copyOf(devices);
    }
  }

  /**
   * {@code created} is false when the endpoint was registered already and that device was updated.
   */
  public record Registered(Device device, boolean created) implements JsonSerializable {}

  // ---- commands
  // ----------------------------------------------------------------------------------

  public sealed interface Command extends JsonSerializable {}

  /** Refused when a new endpoint would pass {@link #MAX_DEVICES}. */
  public record Register(
      DeviceValidator.Subscription subscription,
      Instant at,
      ActorRef<StatusReply<Registered>> replyTo)
      implements Command {}

  /** The owner removes a device; refused when there is none with this id. */
  public record Remove(String deviceId, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  /**
   * The push service said the subscription at {@code endpoint} is gone: the device is removed if it
   * still has that endpoint (a device updated with a new subscription meanwhile stays). Always
   * acknowledged.
   */
  public record RemoveGone(String deviceId, String endpoint, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  public record GetDevices(ActorRef<StatusReply<Devices>> replyTo) implements Command {}

  // ---- events
  // ------------------------------------------------------------------------------------

  public sealed interface Event extends JsonSerializable {}

  /** A new device, or new name and keys for a registered endpoint (same id). */
  public record DeviceRegistered(Device device) implements Event {}

  /** {@code reason}: {@link #REMOVED_BY_OWNER} or {@link #REMOVED_AS_GONE}. */
  public record DeviceRemoved(String deviceId, String reason, Instant at) implements Event {}

  // ---- behaviour
  // ---------------------------------------------------------------------------------

  private static final SecureRandom random = new SecureRandom();

  public static Behavior<Command> create(String accountId) {
    return new DevicesEntity(accountId);
  }

  private DevicesEntity(String entityId) {
    super(TYPE_KEY, entityId);
  }

  @Override
  public State emptyState() {
    return new State(List.of());
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(Register.class, this::onRegister)
        .onCommand(
            Remove.class,
            (state, cmd) ->
                state.byId(cmd.deviceId()).isEmpty()
                    ? Effect().reply(cmd.replyTo(), StatusReply.error("device not found"))
                    : Effect()
                        .persist(new DeviceRemoved(cmd.deviceId(), REMOVED_BY_OWNER, Instant.now()))
                        .thenReply(cmd.replyTo(), s -> StatusReply.ack()))
        .onCommand(
            RemoveGone.class,
            (state, cmd) ->
                state
                        .byId(cmd.deviceId())
                        .filter(d -> d.endpoint().equals(cmd.endpoint()))
                        .isEmpty()
                    ? Effect().reply(cmd.replyTo(), StatusReply.ack())
                    : Effect()
                        .persist(new DeviceRemoved(cmd.deviceId(), REMOVED_AS_GONE, Instant.now()))
                        .thenReply(cmd.replyTo(), s -> StatusReply.ack()))
        .onCommand(
            GetDevices.class,
            (state, cmd) ->
                Effect().reply(cmd.replyTo(), StatusReply.success(new Devices(state.devices()))))
        .build();
  }

  private ReplyEffect<Event, State> onRegister(State state, Register cmd) {
    DeviceValidator.Subscription s = cmd.subscription();
    Optional<Device> known = state.byEndpoint(s.endpoint());
    if (known.isEmpty() && state.devices().size() >= MAX_DEVICES) {
      return Effect()
          .reply(
              cmd.replyTo(), StatusReply.error("an owner has at most " + MAX_DEVICES + " devices"));
    }
    Device device =
        new Device(
            known.map(Device::id).orElseGet(DevicesEntity::newId),
            s.name(),
            s.endpoint(),
            s.p256dh(),
            s.auth(),
            known.map(Device::registeredAt).orElse(cmd.at()));
    Registered registered = new Registered(device, known.isEmpty());
    if (known.isPresent() && known.get().equals(device)) {
      return Effect().reply(cmd.replyTo(), StatusReply.success(registered));
    }
    return Effect()
        .persist(new DeviceRegistered(device))
        .thenReply(cmd.replyTo(), st -> StatusReply.success(registered));
  }

  private static String newId() {
    byte[] bytes = new byte[8];
    random.nextBytes(bytes);
    return "d" + HexFormat.of().formatHex(bytes);
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder()
        .forAnyState()
        .onEvent(DeviceRegistered.class, (state, e) -> state.with(e.device()))
        .onEvent(DeviceRemoved.class, (state, e) -> state.without(e.deviceId()))
        .build();
  }
}
