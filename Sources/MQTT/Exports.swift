// The broker spec is parsed with the other source specs (`SourceSpec.broker`), in PacketSources;
// the client's users name it through this module as before.
@_exported import struct PacketSources.MQTTEndpoint
@_exported import struct PacketSources.MQTTEndpointError
