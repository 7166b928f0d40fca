namespace Ingest.Lab.Catalogue;

/// <summary>What the load generator talks to: the front-end itself, or a reverse proxy in front of it.</summary>
internal enum FrontDoor
{
    Direct,

    /// <summary>nginx from Debian as reverse proxy (and load balancer over several front-end instances).</summary>
    Nginx,

    /// <summary>Caddy from Debian as reverse proxy.</summary>
    Caddy,
}
