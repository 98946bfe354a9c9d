/** Public entry of the network check: run it, or use its pure parts (advice, interface and buffer reports). */
export { runNetworkCheck, type NetworkCheckOptions } from './runNetworkCheck';
export { platformAdvice, WINDOWS_FIREWALL_RULE, type AdviceContext } from './platformAdvice';
export { findingAdvice, type Findings } from './findingAdvice';
export { describeInterfaces } from './interfaceReport';
export { describeReceiveBuffer, formatBytes, GOOD_RECEIVE_BUFFER } from './receiveBuffer';
export { checkPort, describeBindFailure, type OpenUdp, type PortCheckOutcome, type PortRole } from './portCheck';
export { checkSelfDiscovery, defaultSelfTestTargets, type SelfDiscoveryOptions } from './selfDiscovery';
