@echo off
rem Double-click to install YOLO Studio for this user (or: install.bat --dry-run, --cpu, --cuda cu126, --desktop).
rem Runs install.ps1 with the execution policy bypassed for this one process; nothing else is changed.
setlocal
powershell.exe -NoProfile -ExecutionPolicy Bypass -File "%~dp0install.ps1" %*
set rc=%ERRORLEVEL%
rem Started by a double-click: keep the window open so the summary or the error can be read.
echo %cmdcmdline% | findstr /i /c:"%~nx0" >nul && pause
exit /b %rc%
