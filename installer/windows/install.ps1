<#
Install YOLO Studio for this user on Windows, with the PyTorch build that fits this machine's NVIDIA driver
and GPUs, and add it to the Start menu. Double-click install.bat (it runs this script with the execution
policy bypassed for this one process). Re-run to upgrade in place, or to continue an interrupted install.

  install.bat                     install (a few minutes; asks nothing)
  install.bat --dry-run           show the plan, change nothing (--json: as one object)
  install.bat --dry-run --facts FACTS.json    plan for a machine from its saved facts
  options: --cpu | --cuda cu132|cu130|cu126   --desktop (icon on the desktop too)   --prefix DIR
           --torch-index URL (a mirror of PyTorch's wheel index)

This script only finds Python and reads what only Windows can tell (execution policy, long paths, the
Start menu and desktop folders); every decision is made, and tested, in installer\ (python -m installer).
#>
$ErrorActionPreference = 'Stop'
$root = (Resolve-Path (Join-Path $PSScriptRoot '..\..')).Path
. (Join-Path $PSScriptRoot 'find_python.ps1')

$action = 'install'
$rest = @()
foreach ($arg in $args) {
    if ($arg -eq '--dry-run') { $action = 'plan' } else { $rest += $arg }
}
$python = Find-Python
if (-not $python) { exit 1 }

$longPaths = (Get-ItemProperty -Path 'HKLM:\SYSTEM\CurrentControlSet\Control\FileSystem' -Name LongPathsEnabled `
              -ErrorAction SilentlyContinue).LongPathsEnabled
if ($longPaths -ne 1) { $longPaths = 0 }
$env:PYTHONPATH = $root
$env:YOLOSTUDIO_INSTALL_RETRY = ('"' + (Join-Path $PSScriptRoot 'install.bat') + '" ' + ($args -join ' ')).Trim()
Set-Location $HOME
& $python -m installer $action --source $root --long-paths $longPaths `
    --execution-policy (Get-ExecutionPolicy).ToString() `
    --desktop-dir ([Environment]::GetFolderPath('Desktop')) --programs-dir ([Environment]::GetFolderPath('Programs')) `
    @rest
exit $LASTEXITCODE
