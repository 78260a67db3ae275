"""Rendering results: a text table with failure reports, JSON, and JUnit XML."""
from .json_report import to_json
from .junit import to_junit_xml
from .table import render_report, render_table, summary_line

__all__ = ["render_table", "render_report", "summary_line", "to_json", "to_junit_xml"]
