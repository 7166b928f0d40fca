namespace Ingest.Lab.Running;

/// <summary>Where a <see cref="Topology"/>'s services run when not on the lab's loopback: the back-end and the front-ends
/// each in a network namespace (the <c>faults</c> command's network, <see cref="Faults.FaultNetwork"/>).</summary>
internal sealed record Placement(ServiceHost FrontEnd, ServiceHost BackEnd);
