{!kernel target="gpu"
!kernel_arg name=y; 42
!parallel for
