using Ingest.Transports.Internal.Adapters;
using Ingest.Transports.RedHat;

// How Ingest.Transports finds this adapter when Kestrel:Transport=RedHatLinux (TransportAdapters, by assembly name).
[assembly: TransportAdapter(typeof(RedHatLinuxAdapter))]
