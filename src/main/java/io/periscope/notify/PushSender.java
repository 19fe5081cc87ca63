package io.periscope.notify;

/**
 * Web Push to the owner's registered devices: the {@code push} channel. It belongs to the device registry,
 * which provides it to the {@link Notifier}; without one, {@code push} deliveries fail as not configured.
 */
public interface PushSender extends ChannelSender {}
