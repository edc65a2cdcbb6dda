% From seed 001 (Quasar - CUDA Support GUIDE), lines 620, 633: kernel fusion attributes (line 633 is from the running text)
% REPAIR: line 633 is running text; only its attribute {!kernel_fusion barrier} is kept
{!kernel_fusion strategy="smart"}
{!kernel_fusion barrier}
